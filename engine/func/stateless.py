"""`torch.func.functional_call`: a module called with parameters and buffers given by name.

For the call, each named parameter or buffer of the module (and its submodules, "layer.weight")
is the given tensor instead of its own; afterwards the module is as it was. With `grad`, this
makes a loss a function of the parameters: `grad(lambda p: loss(functional_call(m, p, x)))`.
"""
from __future__ import annotations


def _owner(module, dotted: str) -> tuple:
    """(the submodule holding `dotted`'s last part, that part), checked as PyTorch checks it."""
    *path, name = dotted.split(".")
    walked = []
    for part in path:
        walked.append(part)
        child = module.__dict__["_modules"].get(part)
        if child is None:
            value = None if part.startswith("_") else getattr(module, part, None)
            if value is None:
                raise AttributeError(f"{type(module).__name__} has no attribute `{part}`")
            raise TypeError(f"submodule `{'.'.join(walked)}`: {value!r} is not an instance of "
                            f"torch.nn.Module")
        module = child
    return module, name


def functional_call(module, parameter_and_buffer_dicts, args=None, kwargs=None, *,
                    tie_weights: bool = True, strict: bool = False):
    """`module(*args, **kwargs)` with the named tensors in place of its own.

    Example:
        >>> import gradstep.engine as torch
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
            # a name the module does not have is set for the call and removed after, as in
            # PyTorch (an attribute, never a parameter: the module's forward does not read it)
            table = next((owner.__dict__[r] for r in ("_parameters", "_buffers")
                          if name in owner.__dict__[r]), owner.__dict__["_buffers"])
            swapped.append((table, name, table.get(name, _ABSENT)))
            table[name] = value
        return module(*args, **(kwargs or {}))
    finally:
        for table, name, old in reversed(swapped):
            if old is _ABSENT:
                del table[name]
            else:
                table[name] = old


_ABSENT = object()
