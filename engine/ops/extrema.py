"""Largest and smallest values over dimensions, without indices: `torch.amax`, `torch.amin`
and both at once, `torch.aminmax` (one `AminmaxBackward0` node for its two outputs).

Unlike `max(dim)`, which sends the gradient to the one index it returns, amax and amin share
the gradient evenly among all the entries that tie for the extreme value.
"""
from __future__ import annotations

import numpy as np

from collections import namedtuple

from .. import _events
from .._names import TorchNamed, numpy_kwargs
from ..grad_mode import state as _grad_state
from ..tensor import Tensor, new_tensor
from ._dims import dim_of
from ._op import Op, as_array
from .._dual import tangents as _tangents
from ._tangents import has_tangent, push_many
from .join import _MultiNode
from .reduction import dims_of


def _all_dims(dim: tuple, ndim: int) -> tuple:
    """The dims a reduction covers: an empty list means every dim, as in PyTorch."""
    return dim if dim else tuple(range(ndim))


def _ties_backward(grad: Tensor, x: Tensor, r: Tensor, dims: tuple, keepdim: bool) -> Tensor:
    """(grad / count of ties) where self equals the reduced result `r`, else 0."""
    if not keepdim and x.ndim:      # PyTorch's restore_reduced_dims: a reshape
        shape = tuple(1 if d in dims else n for d, n in enumerate(x._data.shape))
        grad, r = grad.reshape(shape), r.reshape(shape)
    mask = r == x
    count = mask.sum(dims, keepdim=True) if x.ndim else mask.sum()
    return (grad / count) * mask     # PyTorch's scale_grad_by_count


class _Amax(Op):
    """Shared backward of amax/amin: (grad / count of ties) where self equals the result."""
    saves = ("dim", "keepdim", "result", "self")
    rule = "grad / (number of ties) where self equals the result, else 0"

    def backward(ctx, grad):
        x = ctx.self
        return (_ties_backward(grad, x, ctx.result, _all_dims(ctx.dim, x.ndim), ctx.keepdim),)

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


class _MinMax(namedtuple("_MinMax", ("min", "max")), metaclass=TorchNamed):
    """PyTorch's `torch.return_types.aminmax`: a (min, max) named tuple."""

    __slots__ = ()

    def __repr__(self) -> str:
        from ..printing import structseq_repr
        return structseq_repr("aminmax", self._asdict())


aminmax_return = type("aminmax", (_MinMax,), {"__slots__": (),
                                              "_torch_name": "torch.return_types.aminmax"})


class Aminmax(Op):
    """min, max = the smallest and the largest value over dim (or all); one node for both"""
    grad_fn_name, name = "AminmaxBackward0", "aminmax"
    saves = ("dim", "keepdim", "max", "min", "self")
    forward_extras = ("max", "min")
    rule = "each output's grad / (number of ties) where self equals it, summed"
    node_base = _MultiNode
    forward = staticmethod(lambda self, dim, keepdim: None)   # apply does it

    @classmethod
    def apply(cls, self, dim, keepdim):
        a = self._data
        axis = None if dim is None or not a.ndim else dim
        lo = new_tensor(as_array(np.min(a, axis=axis, keepdims=keepdim and a.ndim > 0)))
        hi = new_tensor(as_array(np.max(a, axis=axis, keepdims=keepdim and a.ndim > 0)))
        node = None
        if _grad_state.enabled and self._rg and a.dtype.kind == "f":
            node = cls._make_node((self,), lo, (self, dim, keepdim), (hi, lo))
            node._n_out = 2
            for i, o in enumerate((lo, hi)):
                o._rg, o.grad_fn, o._out_nr = True, node, i
        if _tangents and has_tangent((self,)):      # forward mode (_tangents.py)
            push_many(cls, (self,), (self, dim, keepdim), (lo, hi), (hi, lo))
        if _events.listener is not None and not _grad_state.quiet:
            for o in (lo, hi):
                _events.listener.on_op(cls.name, (self,), o, node)
        return aminmax_return(lo, hi)

    def backward(ctx, grads):
        x, out = ctx.self, None
        dims = tuple(range(x.ndim)) if ctx.dim is None else (int(ctx.dim),)
        for g, r in zip(grads, (ctx.min, ctx.max)):
            if g is not None:
                part = _ties_backward(g, x, r, dims, ctx.keepdim)
                out = part if out is None else out + part
        return (out,)

    @classmethod
    def sample_inputs(cls, make, shape):
        yield make(shape), None, False
        if shape:
            yield make(shape), len(shape) - 1, True


def aminmax(input, *, dim=None, keepdim=False):
    """(min, max) of input, over `dim` or over everything, in one call (`torch.aminmax`):
    a named tuple with fields min and max whose tensors share one grad_fn.

    Example:
        >>> import gradstep.engine as torch
        >>> torch.aminmax(torch.tensor([[1.0, 5.0], [-2.0, 3.0]]), dim=1).max.tolist()
        [5.0, 3.0]
    """
    a = input._data
    if dim is None:
        if a.size == 0:
            raise RuntimeError("aminmax(): cannot compute aminmax over an empty dimension as "
                               "the operation has no identity.")
        return Aminmax.apply(input, None, keepdim)
    d = dim_of(dim, input.ndim)
    if a.ndim and a.shape[d] == 0:
        raise IndexError(f"aminmax: Expected reduction dim {int(d)} to have non-zero size.")
    return Aminmax.apply(input, d, keepdim)


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
        >>> import gradstep.engine as torch
        >>> torch.amax(torch.tensor([[1., 5.], [5., 2.]]), dim=1).tolist()
        [5.0, 5.0]
    """
    return _reduce(Amax, input, dim, keepdim)


@numpy_kwargs
def amin(input, dim=(), keepdim=False) -> Tensor:
    """Smallest value over `dim` (every dim by default), ties sharing the gradient
    (`torch.amin`)."""
    return _reduce(Amin, input, dim, keepdim)
