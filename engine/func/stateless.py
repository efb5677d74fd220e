"""`torch.func.functional_call`: a module called with parameters and buffers given by name.

For the call, each named parameter or buffer of the module (and its submodules, "layer.weight")
is the given tensor instead of its own; afterwards the module is as it was. With `grad`, this
makes a loss a function of the parameters: `grad(lambda p: loss(functional_call(m, p, x)))`.
"""
from __future__ import annotations


def _owner(module, dotted: str) -> tuple:
    *path, name = dotted.split(".")
    for part in path:
        module = module._modules[part]
    return module, name


def functional_call(module, parameter_and_buffer_dicts, args=None, kwargs=None, *,
                    tie_weights: bool = True, strict: bool = False):
    """`module(*args, **kwargs)` with the named tensors in place of its own.

    Example:
        >>> import engine as torch
        >>> lin = torch.nn.Linear(1, 1)
        >>> torch.func.functional_call(lin, {"weight": torch.tensor([[2.]]),
        ...                                  "bias": torch.tensor([1.])}, (torch.tensor([3.]),))
        tensor([7.])
    """
    dicts = parameter_and_buffer_dicts
    if isinstance(dicts, dict):
        dicts = (dicts,)
    given: dict = {}
    for d in dicts:
        for key, value in d.items():
            if key in given:
                raise ValueError(f"{key} appeared in multiple dictionaries; behavior of "
                                 f"functional call is ambiguous")
            given[key] = value
    if args is None:
        args = ()
    elif not isinstance(args, tuple):
        args = (args,)
    swapped = []
    try:
        for key, value in given.items():
            owner, name = _owner(module, key)
            registry = next((r for r in ("_parameters", "_buffers")
                             if name in owner.__dict__[r]), None)
            if registry is None:
                raise AttributeError(f"{type(owner).__name__} has no parameter or buffer "
                                     f"named {name!r}")
            table = owner.__dict__[registry]
            swapped.append((table, name, table[name]))
            table[name] = value
        return module(*args, **(kwargs or {}))
    finally:
        for table, name, old in reversed(swapped):
            table[name] = old
