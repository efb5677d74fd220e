"""How engine classes print: as PyTorch's (`<class 'torch.Tensor'>`, `<class 'MulBackward0'>`).

A class that sets `_torch_name` shows that name in `repr(cls)`, so `print(type(x))` reads as it
does with PyTorch. Its real `__module__` stays `engine.*`: the runner's sandbox recognises
engine objects by their module, and pickling and doctest rely on it too.
"""
from __future__ import annotations


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
