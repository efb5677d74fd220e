"""Softmax and spread: `torch.softmax`, `torch.log_softmax`, `torch.var`, `torch.std`.

Ops that normalise along a dimension or measure how values spread around their mean; their
backwards reuse the dimension helpers of `reduction.py`.
"""
from __future__ import annotations

import numpy as np

from ..tensor import Tensor
from ._op import Op, as_array
from .reduction import _keep_shape, _regrow, dims_of

class Softmax(Op):
    """out = exp(self) / sum(exp(self)) along dim"""
    grad_fn_name, name = "SoftmaxBackward0", "softmax"
    saves = ("dim", "result")
    rule = "result * (grad - sum(grad * result, dim))"
    float_only = True

    def forward(self, dim):
        dim = dim if self.ndim else None
        e = np.exp(self - self.max(axis=dim, keepdims=True))
        return e / e.sum(axis=dim, keepdims=True)

    def backward(ctx, grad):
        y = ctx.result
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
        dim = dim if self.ndim else None
        m = self - self.max(axis=dim, keepdims=True)
        return m - np.log(np.exp(m).sum(axis=dim, keepdims=True))

    def backward(ctx, grad):
        return (grad - ctx.result.exp() * grad.sum(ctx.dim, keepdim=True),)

    @classmethod
    def sample_inputs(cls, make, shape):
        yield make(shape), -1 if shape else 0


class Var(Op):
    """out = sum((self - mean)**2) / (N - correction) over dim"""
    grad_fn_name, name = "VarBackward0", "var"
    saves = ("correction", "dim", "keepdim", "self")
    rule = "grad * 2 * (self - mean) / (N - correction)"

    def forward(self, dim, correction, keepdim):
        return as_array(self.var(axis=dim, ddof=correction, keepdims=keepdim)).astype(self.dtype)

    def backward(ctx, grad):
        x, dim = ctx.self, ctx.dim
        dims = tuple(range(x.ndim)) if dim is None else dim
        n = int(np.prod([x._data.shape[d] for d in dims])) if x.ndim else 1
        if not ctx.keepdim and x.ndim:
            grad = grad.reshape(_keep_shape(x._data.shape, dims))
        mean = x.mean(dims, keepdim=True) if x.ndim else x
        return (grad * (x - mean) * (2.0 / (n - ctx.correction)),)

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
        return as_array(self.std(axis=dim, ddof=correction, keepdims=keepdim)).astype(self.dtype)

    def backward(ctx, grad):
        x, dim, r = ctx.self, ctx.dim, ctx.result
        dims = tuple(range(x.ndim)) if dim is None else dim
        n = int(np.prod([x._data.shape[d] for d in dims])) if x.ndim else 1
        if not ctx.keepdim and x.ndim:
            keep = _keep_shape(x._data.shape, dims)
            grad, r = grad.reshape(keep), r.reshape(keep)
        mean = x.mean(dims, keepdim=True) if x.ndim else x
        return (grad * (x - mean) / (r * (n - ctx.correction)),)

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
