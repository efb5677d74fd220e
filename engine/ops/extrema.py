"""Largest and smallest values over dimensions, without indices: `torch.amax`, `torch.amin`.

Unlike `max(dim)`, which sends the gradient to the one index it returns, amax and amin share
the gradient evenly among all the entries that tie for the extreme value.
"""
from __future__ import annotations

import numpy as np

from .._names import numpy_kwargs
from ..tensor import Tensor
from ._op import Op, as_array
from .reduction import dims_of


def _all_dims(dim: tuple, ndim: int) -> tuple:
    """The dims a reduction covers: an empty list means every dim, as in PyTorch."""
    return dim if dim else tuple(range(ndim))


class _Amax(Op):
    """Shared backward of amax/amin: (grad / count of ties) where self equals the result."""
    saves = ("dim", "keepdim", "result", "self")
    rule = "grad / (number of ties) where self equals the result, else 0"

    def backward(ctx, grad):
        x, r, dim = ctx.self, ctx.result, ctx.dim
        if not ctx.keepdim and x.ndim:      # PyTorch's restore_reduced_dims: a reshape
            shape = tuple(1 if d in _all_dims(dim, x.ndim) else n
                          for d, n in enumerate(x._data.shape))
            grad, r = grad.reshape(shape), r.reshape(shape)
        mask = r == x
        count = mask.sum(_all_dims(dim, x.ndim), keepdim=True) if x.ndim else mask.sum()
        return ((grad / count) * mask,)     # PyTorch's scale_grad_by_count

    @classmethod
    def sample_inputs(cls, make, shape):
        yield make(shape), (), False
        if shape:
            yield make(shape), (0,), True
            yield make(shape), (len(shape) - 1,), False


class Amax(_Amax):
    """out = largest value over dim"""
    grad_fn_name, name = "AmaxBackward0", "amax"

    def forward(self, dim, keepdim):
        return as_array(np.max(self, axis=dim or None, keepdims=keepdim))


class Amin(_Amax):
    """out = smallest value over dim"""
    grad_fn_name, name = "AminBackward0", "amin"

    def forward(self, dim, keepdim):
        return as_array(np.min(self, axis=dim or None, keepdims=keepdim))


def _reduce(op, input, dim, keepdim) -> Tensor:
    dims = () if dim is None else dims_of(dim, input.ndim)
    if input._data.size == 0 and not dims:
        raise RuntimeError(f"{op.name}(): Expected reduction dim to be specified for "
                           "input.numel() == 0. Specify the reduction dim with the 'dim' "
                           "argument.")
    return op.apply(input, dims, keepdim)


@numpy_kwargs
def amax(input, dim=(), keepdim=False) -> Tensor:
    """Largest value over `dim` (every dim by default), ties sharing the gradient
    (`torch.amax`).

    Example:
        >>> import engine as torch
        >>> torch.amax(torch.tensor([[1., 5.], [5., 2.]]), dim=1).tolist()
        [5.0, 5.0]
    """
    return _reduce(Amax, input, dim, keepdim)


@numpy_kwargs
def amin(input, dim=(), keepdim=False) -> Tensor:
    """Smallest value over `dim` (every dim by default), ties sharing the gradient
    (`torch.amin`)."""
    return _reduce(Amin, input, dim, keepdim)
