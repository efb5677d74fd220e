"""Errors for PyTorch names that gradstep does not implement.

A learner who writes `torch.fft.fft(x)` or `x.stft(4)` gets what Python says of a misspelt
name, "has no attribute", and would go looking for a mistake in correct code. Where real
PyTorch has the name (`upstream_names.py`, recorded from PyTorch itself), the message says so:
the sandbox's module proxies raise it, and the runner rewrites an uncaught AttributeError on a
tensor (`explained`). It stays an AttributeError, so `hasattr(torch, "fft")` and
`getattr(x, name, default)` behave as they would for any missing name.

Example:
    >>> missing_attribute("torch", "fft")
    "module 'torch' has no attribute 'fft': PyTorch has torch.fft, gradstep does not implement it"
"""
from __future__ import annotations

UPSTREAM = "PyTorch"


def _upstream(owner: str) -> frozenset:
    # imported on a miss only: 29 kB of names nobody needs while a program runs correctly
    from .upstream_names import NAMES
    return NAMES.get(owner, frozenset())


def missing_attribute(module: str, name: str) -> str:
    """The message for `module.name` missing: `module` as the program spells it ("torch")."""
    plain = f"module {module!r} has no attribute {name!r}"
    if name in _upstream(module):
        return f"{plain}: {UPSTREAM} has {module}.{name}, gradstep does not implement it"
    return plain


def explained(exc: BaseException) -> str | None:
    """A better message for an uncaught AttributeError on a tensor whose name PyTorch's Tensor
    has, or None. Tensor has no `__getattr__` for this: defining one makes every attribute
    read of every tensor take CPython's slow path (about 5x per read, 10% of a tiny op), so
    the runner asks here when a program ends with the error instead."""
    from .tensor import Tensor
    obj, name = getattr(exc, "obj", None), getattr(exc, "name", None)
    if type(exc) is AttributeError and isinstance(obj, Tensor) and name in _upstream("Tensor"):
        return (f"{type(obj).__name__!r} object has no attribute {name!r}: {UPSTREAM}'s "
                f"Tensor has .{name}, gradstep does not implement it")
    return None


def upstream_module(dotted: str) -> bool:
    """Whether `dotted` (e.g. "torch.func") is one of real PyTorch's `torch.X` submodules."""
    return dotted in _upstream("submodules")
