"""`out=`: a function's result written into a tensor the caller gives (`torch.add(a, b, out=c)`).

PyTorch computes into `out` and returns it; autograd cannot record that write, so it refuses
`out=` whenever grad mode is on and an argument (or `out` itself) requires grad.
"""
from __future__ import annotations

import functools

from . import grad_mode
from .tensor import Tensor, counter


def _refuse_grad(how: str) -> None:
    raise RuntimeError(f"{how}(): functions with out=... arguments don't support automatic "
                       f"differentiation, but one of the arguments requires grad.")


def written_out(out: Tensor, made: Tensor, how: str) -> Tensor:
    """`made`'s values written into `out`, which is returned; `out` is resized to fit when the
    shapes differ, as PyTorch does."""
    if grad_mode.is_grad_enabled() and (out.requires_grad or made.requires_grad):
        _refuse_grad(how)
    data = made._data.astype(out._data.dtype, copy=False)
    if out._data.shape == data.shape:
        out._data[...] = data
    else:
        out._data = data.copy()
    counter(out)[0] += 1
    return out


def accepts_out(function, how: str):
    """`function` with an `out=` keyword: the arguments are checked first (nothing is
    computed when autograd would be involved), then the result is computed without a graph."""
    @functools.wraps(function)
    def with_out(*args, out=None, **kwargs):
        if out is None:
            return function(*args, **kwargs)
        if grad_mode.is_grad_enabled() and (out.requires_grad or any(
                isinstance(a, Tensor) and a.requires_grad for a in (*args, *kwargs.values()))):
            _refuse_grad(how)
        with grad_mode.no_grad():
            made = function(*args, **kwargs)
        return written_out(out, made, how)
    return with_out
