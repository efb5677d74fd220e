"""How engine classes print: as PyTorch's (`<class 'torch.Tensor'>`, `<class 'MulBackward0'>`).

A class that sets `_torch_name` shows that name in `repr(cls)`, so `print(type(x))` reads as it
does with PyTorch. Its real `__module__` stays the engine's own (`gradstep.engine.*`): the
runner's sandbox recognises engine objects by their module, and pickling and doctest rely on
it too.
"""
from __future__ import annotations

# The engine's own package name: `gradstep.engine` (a wheel maps engine/ there, a checkout
# reaches it through gradstep's __path__).
PACKAGE = __name__.rpartition(".")[0]


def is_engine_module(name: str) -> bool:
    """Whether a `__module__` is the engine's: one of its own modules, or `torch...`, which
    the engine writes on classes that must print as PyTorch's.

    Example:
        >>> is_engine_module(PACKAGE + ".tensor"), is_engine_module("torch.nn")
        (True, True)
        >>> is_engine_module(PACKAGE.rpartition(".")[0] + ".runner.guards")
        False
    """
    return name in (PACKAGE, "torch") or name.startswith((PACKAGE + ".", "torch."))


class TorchNamed(type):
    """Metaclass: `repr(cls)` uses the class's own `_torch_name` when it has one.

    Example:
        >>> class T(metaclass=TorchNamed):
        ...     _torch_name = "torch.Tensor"
        >>> repr(T), T.__module__ != "torch"
        ("<class 'torch.Tensor'>", True)
    """

    def __repr__(cls) -> str:
        name = cls.__dict__.get("_torch_name")
        return f"<class '{name}'>" if name else super().__repr__()


def typename(obj) -> str:
    """PyTorch's `torch.typename`: how its messages name an object of the wrong kind.

    A tensor by its legacy type, a class or function by module and qualified name (engine
    classes by the PyTorch name they print as), an instance by its class; Python's builtins
    without a module.

    Example:
        >>> typename([1]), typename(2.5), typename(typename)
        ('list', 'float', 'gradstep.engine._names.typename')
    """
    from .tensor import Tensor
    if isinstance(obj, Tensor):
        return obj.type()
    if isinstance(obj, type) and obj.__dict__.get("_torch_name"):
        return obj.__dict__["_torch_name"]
    module = getattr(obj, "__module__", "") or ""
    if hasattr(obj, "__qualname__"):
        qualname = obj.__qualname__
    elif hasattr(obj, "__name__"):
        qualname = obj.__name__
    elif type(obj).__dict__.get("_torch_name"):     # an instance of an engine class
        return type(obj).__dict__["_torch_name"]
    else:
        module, qualname = type(obj).__module__ or "", type(obj).__qualname__
    return qualname if module in ("", "builtins") else f"{module}.{qualname}"


_NUMPY_SPELLINGS = {"axis": "dim", "keepdims": "keepdim"}


def numpy_kwargs(fn):
    """Also accept numpy's keyword spellings, as PyTorch's argument parser does for every op:
    `x.sum(axis=1, keepdims=True)` is `x.sum(dim=1, keepdim=True)`.

    Example:
        >>> @numpy_kwargs
        ... def total(x, dim=None, keepdim=False):
        ...     return dim, keepdim
        >>> total(0, axis=1, keepdims=True)
        (1, True)
    """
    import functools

    @functools.wraps(fn)
    def wrapper(*args, **kwargs):
        if "keepdims" in kwargs or "axis" in kwargs:
            kwargs = {_NUMPY_SPELLINGS.get(k, k): v for k, v in kwargs.items()}
        return fn(*args, **kwargs)
    return wrapper


# PyTorch's classes are plain Python classes (their type is `type`), so a program that misuses
# one as an object reads "'type' object does not support the context manager protocol"
# (`with torch.no_grad:`, no parentheses) or "'type' object is not subscriptable"; the
# metaclass answers to that name in such messages. (Its __module__ stays engine._names: the
# sandbox tells engine types apart by module.)
TorchNamed.__name__ = TorchNamed.__qualname__ = "type"
