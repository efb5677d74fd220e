"""Softmax and spread: `torch.softmax`, `torch.log_softmax`, `torch.var`, `torch.std`.

Ops that normalise along a dimension or measure how values spread around their mean; their
backwards reuse the dimension helpers of `reduction.py`.
"""
from __future__ import annotations

import numpy as np

from ..tensor import Tensor, new_tensor
from ._broadcast import records_nothing
from . import _sum_order
from ._exact import F32, SMALL, fma32, sleef_expf, via64
from ._op import Op, as_array
from ._sum_order import lane_sum
from .reduction import _keep_shape, _regrow, dims_of


# NOTE [softmax bits]
# PyTorch's softmax and log_softmax over the last dim of a float32 tensor run vectorised
# kernels: exp is Sleef's expf (not correctly rounded, so not numpy's or float64's), the row
# sums follow `vec::reduce_all` (ops/_sum_order.py lane_sum), softmax multiplies by 1 / sum,
# log_softmax subtracts max then log(sum), and its backward is one fused multiply-add,
# grad - exp(out) * sum(grad). For learner-sized tensors the engine computes exactly that
# (softmax: every bit of PyTorch 2.13 on an AVX-512 CPU; log_softmax: ~99.5%, its log of the
# sums is Sleef's too). Backwards use it when nothing is recorded; under create_graph they
# are Tensor ops (the same maths, rounded as the engine's ops round).
def _lastdim32(x: np.ndarray, dim) -> bool:
    """Whether the softmax kernels above apply: float32, small, over the last dim."""
    return x.dtype == F32 and 0 < x.size <= SMALL and (x.ndim <= 1 or dim == x.ndim - 1)

class Softmax(Op):
    """out = exp(self) / sum(exp(self)) along dim"""
    grad_fn_name, name = "SoftmaxBackward0", "softmax"
    saves = ("dim", "result")
    rule = "result * (grad - sum(grad * result, dim))"
    float_only = True

    def forward(self, dim):
        if _lastdim32(self, dim):          # NOTE [softmax bits]
            x = self.reshape(-1, self.shape[-1]) if self.ndim else self.reshape(1, 1)
            e = sleef_expf(x - x.max(axis=-1, keepdims=True))
            return (e * (np.float32(1) / lane_sum(e))).reshape(self.shape)
        dim = dim if self.ndim else None
        e = np.exp(self - self.max(axis=dim, keepdims=True))
        return e / e.sum(axis=dim, keepdims=True)

    def backward(ctx, grad):
        y = ctx.result
        g, yd = grad._data, y._data
        if _lastdim32(yd, ctx.dim) and g.dtype == F32 and records_nothing():
            return (new_tensor((g - lane_sum(g * yd)) * yd),)
        return (y * (grad - (grad * y).sum(ctx.dim, keepdim=True)),)

    @classmethod
    def sample_inputs(cls, make, shape):
        yield make(shape), -1 if shape else 0


class LogSoftmax(Op):
    """out = self - log(sum(exp(self))) along dim"""
    grad_fn_name, name = "LogSoftmaxBackward0", "log_softmax"
    saves = ("dim", "result")
    rule = "grad - exp(result) * sum(grad, dim)"
    float_only = True

    def forward(self, dim):
        if _lastdim32(self, dim):          # NOTE [softmax bits]
            x = self.reshape(-1, self.shape[-1]) if self.ndim else self.reshape(1, 1)
            m = x - x.max(axis=-1, keepdims=True)
            log_sum = np.log(lane_sum(sleef_expf(m)), dtype=np.float64).astype(F32)
            return (m - log_sum).reshape(self.shape)
        dim = dim if self.ndim else None
        m = self - self.max(axis=dim, keepdims=True)
        return m - np.log(np.exp(m).sum(axis=dim, keepdims=True))

    def backward(ctx, grad):
        g, out = grad._data, ctx.result._data
        if _lastdim32(out, ctx.dim) and g.dtype == F32 and records_nothing():
            return (new_tensor(fma32(-sleef_expf(out), lane_sum(g), g)),)
        return (grad - ctx.result.exp() * grad.sum(ctx.dim, keepdim=True),)

    @classmethod
    def sample_inputs(cls, make, shape):
        yield make(shape), -1 if shape else 0


def _spread(x: np.ndarray, dim, correction, keepdim: bool, fn) -> np.ndarray:
    """var or std as PyTorch computes them: in float64 (Welford's running sums along dims;
    over everything, squares about the float32 mean), rounded once to x's dtype."""
    if x.dtype.kind == "f" and x.ndim and (dim is None or len(dim) == x.ndim):
        from .reduction import Mean
        mean = np.float64(Mean.forward(x))
        d = x.astype(np.float64) - mean
        out = np.sum(d * d) / max(0, x.size - correction)
        out = np.sqrt(out) if fn is np.std else out
        shape = (1,) * x.ndim if keepdim else ()
        return np.asarray(out, x.dtype).reshape(shape)
    return as_array(fn(x, axis=dim, ddof=correction, keepdims=keepdim,
                       dtype=np.float64)).astype(x.dtype)


def _var_backward(grad: Tensor, x: Tensor, dim, correction, keepdim: bool) -> Tensor:
    """PyTorch's var_backward: (2 / (N - correction)) * grad * (self - mean)."""
    dims = tuple(range(x.ndim)) if dim is None else dim
    n = int(np.prod([x._data.shape[d] for d in dims])) if x.ndim else 1
    if not keepdim and x.ndim:
        grad = grad.reshape(_keep_shape(x._data.shape, dims))
    mean = x.mean(dims, keepdim=True) if x.ndim else x
    return grad * (2.0 / (n - correction)) * (x - mean)


class Var(Op):
    """out = sum((self - mean)**2) / (N - correction) over dim"""
    grad_fn_name, name = "VarBackward0", "var"
    saves = ("correction", "dim", "keepdim", "self")
    rule = "grad * 2 * (self - mean) / (N - correction)"

    def forward(self, dim, correction, keepdim):
        return _spread(self, dim, correction, keepdim, np.var)

    def backward(ctx, grad):
        return (_var_backward(grad, ctx.self, ctx.dim, ctx.correction, ctx.keepdim),)

    @classmethod
    def sample_inputs(cls, make, shape):
        if shape and int(np.prod(shape)) > 1:
            yield make(shape), None, 1, False


class Std(Op):
    """out = sqrt(var(self, dim, correction))"""
    grad_fn_name, name = "StdBackward0", "std"
    saves = ("correction", "dim", "keepdim", "result", "self")
    rule = "grad * (self - mean) / ((N - correction) * result)"

    def forward(self, dim, correction, keepdim):
        return _spread(self, dim, correction, keepdim, np.std)

    def backward(ctx, grad):     # PyTorch: var's backward of grad / (2 * result)
        return (_var_backward(grad / (ctx.result * 2), ctx.self, ctx.dim, ctx.correction,
                              ctx.keepdim),)

    sample_inputs = Var.sample_inputs


# ---- public entry points ------------------------------------------------------------------
def softmax(input, dim, dtype=None) -> Tensor:
    return Softmax.apply(input, dims_of(dim, input.ndim)[0] if input.ndim else 0)


class Logsumexp(Op):
    """out = log(sum(exp(self))) over dim"""
    grad_fn_name, name = "LogsumexpBackward0", "logsumexp"
    saves = ("dim", "keepdim", "result", "self")
    rule = "grad * exp(self - result), both broadcast back over dim"
    float_only = True

    def forward(self, dim, keepdim):
        axis = dim if self.ndim else None
        m = self.max(axis=axis, keepdims=True)
        m = np.where(np.isfinite(m), m, 0).astype(self.dtype)   # shift for stability
        if self.dtype == F32 and self.size <= SMALL and self.ndim:   # PyTorch's roundings:
            e = via64(np.exp)(self - m)     # exp, its sum order, log, then + max
            total = _sum_order.dim_sum(e, axis, True)
            total = e.sum(axis=axis, keepdims=True) if total is None else total
            return as_array(via64(np.log)(total) + m if keepdim else
                            (via64(np.log)(total) + m).squeeze(axis))
        out = np.log(np.exp(self - m).sum(axis=axis, keepdims=True)) + m
        return as_array(out if keepdim or not self.ndim else out.squeeze(axis))

    def backward(ctx, grad):
        sizes = ctx.self._data.shape
        out = _regrow(ctx.result, sizes, ctx.dim, ctx.keepdim)
        return (_regrow(grad, sizes, ctx.dim, ctx.keepdim) * (ctx.self - out).exp(),)

    @classmethod
    def sample_inputs(cls, make, shape):
        for keep in (False, True):
            yield make(shape), tuple(range(len(shape)))[-1:], keep


def logsumexp(input, dim, keepdim=False) -> Tensor:
    """log(sum(exp(input))) over `dim`, computed stably (`torch.logsumexp`)."""
    return Logsumexp.apply(input, dims_of(dim, input.ndim), keepdim)


def log_softmax(input, dim, dtype=None) -> Tensor:
    return LogSoftmax.apply(input, dims_of(dim, input.ndim)[0] if input.ndim else 0)


def var(input, dim=None, unbiased=True, keepdim=False, *, correction=None) -> Tensor:
    c = (1 if unbiased else 0) if correction is None else correction
    d = None if dim is None else dims_of(dim, input.ndim)
    return Var.apply(input, d, c, keepdim)


def std(input, dim=None, unbiased=True, keepdim=False, *, correction=None) -> Tensor:
    c = (1 if unbiased else 0) if correction is None else correction
    d = None if dim is None else dims_of(dim, input.ndim)
    return Std.apply(input, d, c, keepdim)
