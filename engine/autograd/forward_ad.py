"""`torch.autograd.forward_ad`: forward-mode AD with dual tensors.

Inside `dual_level()`, `make_dual(primal, tangent)` gives a tensor that carries a tangent;
every op on it pushes the tangent forward (J·t, `engine/ops/_tangents.py`), and
`unpack_dual(out)` reads it back. Leaving the level drops every tangent. One level at a time,
as in PyTorch ("Nested forward mode AD is not supported at the moment").

The tangents live in `engine/_dual.py`, keyed by tensor; `tangent_of(t)` is the read meant
for a recorder. Entering and leaving a level is reported to the listener as
`on_dual_level(level, entered)`.

Example:
    >>> import gradstep.engine as torch
    >>> import gradstep.engine.autograd.forward_ad as fwAD
    >>> with fwAD.dual_level():
    ...     x = fwAD.make_dual(torch.tensor([0.0, 1.0]), torch.tensor([1.0, 1.0]))
    ...     fwAD.unpack_dual(x * x).tangent
    tensor([0., 2.])
"""
from __future__ import annotations

import functools
from collections import namedtuple

from .. import _events, messages
from .._names import TorchNamed
from .._dual import attach
from .._dual import level as _level
from .._dual import tangents as _tangents
from ..ops._tangents import tangent_of as _tangent_of
from ..ops.dual import make_dual_view, unpack_primal
from ..tensor import Tensor

__all__ = ["UnpackedDualTensor", "enter_dual_level", "exit_dual_level", "make_dual",
           "unpack_dual", "dual_level"]

class UnpackedDualTensor(namedtuple("UnpackedDualTensor", ("primal", "tangent")),
                         metaclass=TorchNamed):
    """What `unpack_dual` returns: the primal (a view of the dual tensor) and its tangent
    (None when it has none at this level)."""

    __slots__ = ()
    _torch_name = "torch.autograd.forward_ad.UnpackedDualTensor"


def current_level() -> int:
    """The open dual level, -1 when none is open."""
    return _level.current


def enter_dual_level() -> int:
    """Open a dual level and return its number (0): PyTorch refuses a second one."""
    if _level.current >= 0:
        raise RuntimeError(messages.FWAD_NESTED)
    _level.current = 0
    if _events.listener is not None:
        _events.listener.on_dual_level(0, True)
    return 0


def exit_dual_level(*, level: int | None = None) -> None:
    """Close the dual level (the last one opened), dropping every tangent."""
    if level is None:
        level = _level.current
    if level < 0:
        raise RuntimeError(messages.FWAD_NEGATIVE)
    if level != _level.current:
        raise RuntimeError(messages.FWAD_NOT_LAST)
    _tangents.clear()
    _level.current = level - 1
    if _events.listener is not None:
        _events.listener.on_dual_level(level, False)


class dual_level:
    """Context manager (and decorator) for one dual level: `with dual_level(): ...`."""

    def __enter__(self) -> int:
        return enter_dual_level()

    def __exit__(self, *exc) -> None:
        exit_dual_level()

    def __call__(self, fn):
        @functools.wraps(fn)
        def wrapper(*args, **kwargs):
            with dual_level():
                return fn(*args, **kwargs)
        return wrapper


def make_dual(tensor: Tensor, tangent: Tensor, *, level: int | None = None) -> Tensor:
    """A view of `tensor` whose tangent at the open level is `tangent` (kept as given)."""
    if level is None:
        level = _level.current
    for name, t in (("primal", tensor), ("tangent", tangent)):
        if not (t.dtype.is_floating_point or t.dtype.is_complex):
            raise ValueError(messages.FWAD_NOT_FLOAT.format(name, t.dtype))
    if level < 0 or _level.current < 0:
        raise RuntimeError(messages.FWAD_NO_LEVEL)
    if level != _level.current:
        raise RuntimeError(messages.FWAD_INVALID_LEVEL)
    if tensor._uid in _tangents:
        raise RuntimeError(messages.FWAD_DUAL_PRIMAL.format(level))
    if tangent._uid in _tangents:
        raise RuntimeError(messages.FWAD_DUAL_TANGENT.format(level))
    if tuple(tensor.shape) != tuple(tangent.shape):
        raise RuntimeError(messages.FWAD_SIZE.format(list(tensor.shape), list(tangent.shape)))
    dual = make_dual_view(tensor)
    attach(dual, tangent)
    return dual


def unpack_dual(tensor: Tensor, *, level: int | None = None) -> UnpackedDualTensor:
    """(primal, tangent) of `tensor`: inside a level the primal is a view without the tangent
    (also of a tensor that has none), outside it the tensor itself."""
    if level is None:
        level = _level.current
    if level < 0:
        return UnpackedDualTensor(tensor, None)
    return UnpackedDualTensor(unpack_primal(tensor), _tangent_of(tensor))


def tangent_of(tensor: Tensor) -> Tensor | None:
    """`tensor`'s tangent at the open dual level, or None (for the trace and the player)."""
    return _tangent_of(tensor)
