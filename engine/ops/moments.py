"""Spread and centre in one call: `torch.var_mean` and `torch.std_mean`.

Each returns a plain tuple (var or std, mean) whose two tensors share one grad_fn
(VarMeanBackward0 / StdMeanBackward0), told apart by their output number, as in PyTorch; the
backward adds the gradient through the spread and the one through the mean.
"""
from __future__ import annotations

import numpy as np

from .. import _events
from ..grad_mode import state as _grad_state
from ..tensor import Tensor, new_tensor
from ._op import Op
from .._dual import tangents as _tangents
from ._tangents import has_tangent, push_many
from .arithmetic import MulScalar
from .join import _MultiNode
from .reduction import dims_of
from .stats import _spread, _var_backward


def _mean_backward(grad: Tensor, x: Tensor, dim, keepdim: bool) -> Tensor:
    """PyTorch's mean_backward: grad expanded back over dim, then divided by the count."""
    sizes = x._data.shape
    dims = tuple(range(x.ndim)) if dim is None else dim
    if not keepdim and x.ndim:
        grad = grad.reshape(tuple(1 if d in dims else n for d, n in enumerate(sizes)))
    count = int(np.prod([sizes[d] for d in dims])) if x.ndim else 1
    return grad.expand(sizes) / count


def _mean(x: np.ndarray, dim, keepdim: bool) -> np.ndarray:
    """The mean var_mean returns: PyTorch's Welford pass keeps it in float64, rounded once
    (not torch.mean's float32 sum)."""
    axis = None if dim is None or not x.ndim else dim
    out = np.mean(x, axis=axis, dtype=np.float64, keepdims=keepdim and x.ndim > 0)
    return np.asarray(out).astype(x.dtype)


class _SpreadMean(Op):
    """Shared apply of var_mean/std_mean: two outputs, one node."""
    node_base = _MultiNode

    @classmethod
    def apply(cls, self, dim, correction, keepdim):
        a = self._data
        spread = _spread(a, dim, correction, keepdim, cls.spread_fn)
        outs = (new_tensor(spread), new_tensor(_mean(a, dim, keepdim)))
        node = None
        if _grad_state.enabled and self._rg and a.dtype.kind == "f":
            node = cls._make_node((self,), outs[0], (self, dim, correction, keepdim),
                                  (outs[0],))
            node._n_out = 2
            for i, o in enumerate(outs):
                o._rg, o.grad_fn, o._out_nr = True, node, i
        if _tangents and has_tangent((self,)):      # forward mode (_tangents.py)
            push_many(cls, (self,), (self, dim, correction, keepdim), outs, (outs[0],))
        if _events.listener is not None and not _grad_state.quiet:
            for o in outs:
                _events.listener.on_op(cls.name, (self,), o, node)
        return outs

    def backward(ctx, grads):
        g_spread, g_mean = grads
        x, out = ctx.self, None
        if g_spread is not None:
            out = type(ctx)._op.spread_backward(ctx, g_spread, x)
        if g_mean is not None:
            m = _mean_backward(g_mean, x, ctx.dim, ctx.keepdim)
            out = m if out is None else out + m
        return (out,)

    @classmethod
    def sample_inputs(cls, make, shape):
        if shape and int(np.prod(shape)) > 1:
            yield make(shape), None, 1, False
            yield make(shape), (0,), 0, True


class VarMean(_SpreadMean):
    """var, mean = var(self, dim, correction), mean(self, dim)"""
    grad_fn_name, name = "VarMeanBackward0", "var_mean"
    saves = ("correction", "dim", "keepdim", "self")
    rule = "var's backward of grad[0] plus mean's backward of grad[1]"
    spread_fn = np.var
    forward = staticmethod(lambda self, dim, correction, keepdim: None)   # apply does it

    def spread_backward(ctx, grad, x):
        return _var_backward(grad, x, ctx.dim, ctx.correction, ctx.keepdim)


class StdMean(_SpreadMean):
    """std, mean = std(self, dim, correction), mean(self, dim)"""
    grad_fn_name, name = "StdMeanBackward0", "std_mean"
    saves = ("correction", "dim", "keepdim", "result0", "self")
    forward_extras = ("result0",)
    rule = "std's backward of grad[0] plus mean's backward of grad[1]"
    spread_fn = np.std
    forward = staticmethod(lambda self, dim, correction, keepdim: None)

    def spread_backward(ctx, grad, x):     # std's: var's backward of grad / (2 * std)
        r = ctx.result0
        g = (grad / MulScalar.apply(r, 2)).masked_fill(r == 0, 0)
        return _var_backward(g, x, ctx.dim, ctx.correction, ctx.keepdim)


def _spread_mean(op, input, dim, unbiased, keepdim, correction) -> tuple:
    if input._data.dtype.kind not in "fc":
        raise RuntimeError(f"{op.name} only support floating point and complex dtypes")
    if isinstance(dim, bool):      # var_mean(x, False): the old `unbiased` positional
        dim, unbiased = None, dim
    c = (1 if unbiased else 0) if correction is None else correction
    return op.apply(input, None if dim is None else dims_of(dim, input.ndim), c, keepdim)


def var_mean(input, dim=None, unbiased=True, keepdim=False, *, correction=None) -> tuple:
    """(variance, mean) over `dim` (everything by default) (`torch.var_mean`).

    Example:
        >>> import gradstep.engine as torch
        >>> v, m = torch.var_mean(torch.tensor([1., 2., 3., 4.]))
        >>> v.item(), m.item()
        (1.6666666269302368, 2.5)
    """
    return _spread_mean(VarMean, input, dim, unbiased, keepdim, correction)


def std_mean(input, dim=None, unbiased=True, keepdim=False, *, correction=None) -> tuple:
    """(standard deviation, mean) over `dim` (everything by default) (`torch.std_mean`)."""
    return _spread_mean(StdMean, input, dim, unbiased, keepdim, correction)
