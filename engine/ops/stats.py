"""Softmax and spread: `torch.softmax`, `torch.log_softmax`, `torch.var`, `torch.std`.

Ops that normalise along a dimension or measure how values spread around their mean; their
backwards reuse the dimension helpers of `reduction.py`.
"""
from __future__ import annotations

import numpy as np

from .._names import numpy_kwargs
from ..tensor import Tensor
from . import _sum_order
from ._dims import dim_of, dims_of
from ._exact import F32, SMALL, fma32, sleef_expf, via64
from ._op import Op, as_array
from ._sum_order import lane_sum
from .arithmetic import MulScalar
from .reduction import SumDim


# NOTE [softmax bits]
# PyTorch's softmax and log_softmax over the last dim of a float32 tensor run vectorised
# kernels: exp is Sleef's expf (not correctly rounded, so not numpy's or float64's), the row
# sums follow `vec::reduce_all` (ops/_sum_order.py lane_sum), softmax multiplies by 1 / sum,
# log_softmax subtracts max then log(sum), and its backward is one fused multiply-add,
# grad - exp(out) * sum(grad). For learner-sized tensors the engine computes exactly that
# (softmax: every bit of PyTorch 2.13 on an AVX-512 CPU; log_softmax: ~99.5%, its log of the
# sums is Sleef's too). Backwards use it when nothing is recorded; under create_graph they
# are Tensor ops (the same maths, rounded as the engine's ops round).
#
# Over another dim the kernels vectorise across the dims after it (inner columns, 16 per
# vector): sums run down the dim one row after another; softmax exponentiates with exp
# rounded once and divides by the sum; log_softmax uses Sleef's expf for whole vectors of
# columns (exp rounded once for the rest); softmax's backward accumulates sum(grad * out)
# with fused multiply-adds.
def _lastdim32(x: np.ndarray, dim) -> bool:
    """Whether the softmax kernels above apply: float32, small, over the last dim."""
    return x.dtype == F32 and 0 < x.size <= SMALL and (x.ndim <= 1 or dim == x.ndim - 1)


def _innerdim32(x: np.ndarray, dim) -> bool:
    """Whether the kernels over another dim apply: float32, small, not the last dim."""
    return (x.dtype == F32 and 0 < x.size <= SMALL and x.ndim > 1 and dim != x.ndim - 1
            and x.shape[dim] <= 64)


def _rows(x: np.ndarray, dim) -> np.ndarray:
    """x as (outer, dim, inner): the softmax dim in the middle."""
    return x.reshape(int(np.prod(x.shape[:dim])), x.shape[dim], -1)


def _column_exp(a: np.ndarray) -> np.ndarray:
    """exp of an (outer, dim, inner) array as the vectorised kernels take it: Sleef's expf
    for the columns that fill whole 16-lane vectors, exp rounded once for the rest."""
    split = a.shape[2] // _sum_order.VEC_LANES * _sum_order.VEC_LANES
    out = _exp(a)
    if split:
        out[:, :, :split] = sleef_expf(np.ascontiguousarray(a[:, :, :split]))
    return out


def logsumexp_jvp(x: Tensor, t: Tensor, dim, keepdim: bool) -> Tensor:
    """PyTorch's forward derivative of logsumexp, shared by softmax and log_softmax: the
    tangent averaged with the weights exp(x - max) along dim."""
    if not x._data.ndim:
        dim = ()
    e = (x - x.amax(dim, keepdim=True)).exp() if x._data.size else x.exp()
    return (e * t).sum(dim, keepdim) / e.sum(dim, keepdim)


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
        if _innerdim32(self, dim):
            x = _rows(self, dim)
            e = _exp(x - x.max(axis=1, keepdims=True))
            return (e / np.cumsum(e, axis=1)[:, -1:]).reshape(self.shape)
        dim = dim if self.ndim else None
        e = np.exp(self - self.max(axis=dim, keepdims=True))
        return e / e.sum(axis=dim, keepdims=True)

    def backward(ctx, grad):        # PyTorch's _softmax_backward_data, its own node
        return (SoftmaxBackwardData.apply(grad, ctx.result, ctx.dim),)

    def jvp(ctx, self_t):            # PyTorch's result * (self_t - logsumexp_jvp(...))
        return ctx.result * (self_t - logsumexp_jvp(ctx.self, self_t, ctx.dim, True))

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
        if _innerdim32(self, dim):
            x = _rows(self, dim)
            m = x - x.max(axis=1, keepdims=True)
            total = np.cumsum(_column_exp(m), axis=1)[:, -1:]
            return (m - np.log(total, dtype=np.float64).astype(F32)).reshape(self.shape)
        dim = dim if self.ndim else None
        m = self - self.max(axis=dim, keepdims=True)
        return m - np.log(np.exp(m).sum(axis=dim, keepdims=True))

    def backward(ctx, grad):        # PyTorch's _log_softmax_backward_data, its own node
        return (LogSoftmaxBackwardData.apply(grad, ctx.result, ctx.dim),)

    def jvp(ctx, self_t):            # PyTorch's self_t - logsumexp_jvp(...)
        return self_t - logsumexp_jvp(ctx.self, self_t, ctx.dim, True)

    @classmethod
    def sample_inputs(cls, make, shape):
        yield make(shape), -1 if shape else 0


class SoftmaxBackwardData(Op):
    """out = output * (grad_output - sum(grad_output * output, dim))"""
    grad_fn_name, n_inputs = "SoftmaxBackwardDataBackward0", 2
    name = "_softmax_backward_data"
    saves = ("dim", "grad_output", "output")
    rule = "the same kernel on grad; go * grad - sum(out * go) * grad - go * sum(out * grad)"

    def forward(grad_output, output, dim):
        g, y = grad_output, output
        if _lastdim32(y, dim) and g.dtype == F32:       # NOTE [softmax bits]
            return (g - lane_sum(g * y)) * y
        if _innerdim32(y, dim) and g.dtype == F32:
            g3, y3 = _rows(g, dim), _rows(y, dim)
            total = np.zeros_like(g3[:, 0])
            for i in range(g3.shape[1]):
                total = fma32(g3[:, i], y3[:, i], total)
            return ((g3 - total[:, None]) * y3).reshape(g.shape)
        return y * (g - SumDim.forward(g * y, (dim,), True))

    def backward(ctx, grad):        # PyTorch's softmax_double_backward for the output
        a, b = ctx.needs_input_grad
        go, y, dim = ctx.grad_output, ctx.output, ctx.dim
        return (SoftmaxBackwardData.apply(grad, y, dim) if a else None,
                go * grad - (y * go).sum(dim, keepdim=True) * grad
                - go * (y * grad).sum(dim, keepdim=True) if b else None)

    @classmethod
    def sample_inputs(cls, make, shape):
        y = Softmax.apply(make(shape), -1 if shape else 0)
        yield make(shape), y, -1 if shape else 0


class LogSoftmaxBackwardData(Op):
    """out = grad_output - exp(output) * sum(grad_output, dim)"""
    grad_fn_name, n_inputs = "LogSoftmaxBackwardDataBackward0", 2
    name = "_log_softmax_backward_data"
    saves = ("dim", "grad_output", "output")
    rule = "grad - sum(grad * exp(out)) (to grad_output), -sum(go) * exp(out) * grad (to out)"

    def forward(grad_output, output, dim):
        g = grad_output
        if _lastdim32(output, dim) and g.dtype == F32:  # NOTE [softmax bits]: one fma
            return fma32(-sleef_expf(output), lane_sum(g), g)
        if _innerdim32(output, dim) and g.dtype == F32:
            g3 = _rows(g, dim)
            total = np.cumsum(g3, axis=1)[:, -1:]
            return fma32(-_column_exp(_rows(output, dim)), total, g3).reshape(g.shape)
        return g - _exp(output) * SumDim.forward(g, (dim,), True)

    def backward(ctx, grad):
        a, b = ctx.needs_input_grad
        go, out, dim = ctx.grad_output, ctx.output, ctx.dim
        return (grad - (grad * out.exp()).sum(dim, keepdim=True) if a else None,
                -go.sum(dim, keepdim=True) * out.exp() * grad if b else None)

    @classmethod
    def sample_inputs(cls, make, shape):
        y = LogSoftmax.apply(make(shape), -1 if shape else 0)
        yield make(shape), y, -1 if shape else 0


_exp = via64(np.exp)


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
    if dim is None or not x.ndim:   # over everything: the 0-d grad and mean broadcast
        n = x._data.size
        mean = x.mean() if x.ndim else x
    else:
        n = int(np.prod([x._data.shape[d] for d in dim]))
        if not keepdim and x.ndim > 1:          # PyTorch's unsqueeze_multiple
            for d in sorted(dim):
                grad = grad.unsqueeze(d)
        mean = x.mean(dim, keepdim=True)
    # (2 / dof) * grad: a Tensor-by-Scalar product, as PyTorch's (MulBackward1)
    return MulScalar.apply(grad, 2.0 / (n - correction)) * (x - mean)


class Var(Op):
    """out = sum((self - mean)**2) / (N - correction) over dim"""
    grad_fn_name, name = "VarBackward0", "var"
    saves = ("correction", "dim", "keepdim", "self")
    rule = "grad * 2 * (self - mean) / (N - correction)"

    def forward(self, dim, correction, keepdim):
        return _spread(self, dim, correction, keepdim, np.var)

    def backward(ctx, grad):
        return (_var_backward(grad, ctx.self, ctx.dim, ctx.correction, ctx.keepdim),)

    def jvp(ctx, self_t):
        return var_jvp(self_t, ctx.self, ctx.dim, ctx.correction, ctx.keepdim)

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

    def backward(ctx, grad):     # PyTorch: var's backward of grad / (2 * result), 0 at 0
        r = ctx.result
        g = (grad / MulScalar.apply(r, 2)).masked_fill(r == 0, 0)
        return (_var_backward(g, ctx.self, ctx.dim, ctx.correction, ctx.keepdim),)

    def jvp(ctx, self_t):        # PyTorch's var_jvp / (2 * result), 0 where result is 0
        r = ctx.result
        t = var_jvp(self_t, ctx.self, ctx.dim, ctx.correction, ctx.keepdim)
        return (t / MulScalar.apply(r, 2)).masked_fill(r == 0, 0)

    sample_inputs = Var.sample_inputs


def var_jvp(t: Tensor, x: Tensor, dim, correction, keepdim: bool) -> Tensor:
    """PyTorch's forward derivative of var: sum(2 / (N - correction) * t * (x - mean))."""
    dims = tuple(range(x.ndim)) if dim is None else dim
    n = int(np.prod([x.shape[d] for d in dims])) if x.ndim else 1
    centred = x - x.mean(dims, keepdim=True) if x.ndim else x - x
    return ((2.0 / (n - correction)) * t * centred).sum(dims if x.ndim else (), keepdim)


# ---- public entry points ------------------------------------------------------------------
def softmax(input, dim, dtype=None) -> Tensor:
    if dtype is not None:
        input = input.to(dtype)
    d = dim_of(dim, input.ndim)
    _softmax_floats_only("softmax", input, d)
    return Softmax.apply(input, d)


def _softmax_floats_only(name: str, input, d: int) -> None:
    """PyTorch's CPU kernels for (log_)softmax take floating tensors only; the message names
    the kernel, which differs for the last dim. (dtype= converts first, so it is the cure.)"""
    if input._data.dtype.kind not in "fc":
        kernel = name + ("_lastdim" if d == max(input.ndim, 1) - 1 else "") + "_kernel_impl"
        raise NotImplementedError(f'"{kernel}" not implemented for '
                                  f"'{input.dtype.legacy[:-6]}'")


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

    def jvp(ctx, self_t):
        return logsumexp_jvp(ctx.self, self_t, ctx.dim, ctx.keepdim)

    def backward(ctx, grad):
        out = ctx.result
        if not ctx.keepdim and ctx.self.ndim:     # PyTorch's unsqueeze_multiple; broadcasts
            for d in sorted(ctx.dim):
                grad, out = grad.unsqueeze(d), out.unsqueeze(d)
        return (grad * (ctx.self - out).exp(),)

    @classmethod
    def sample_inputs(cls, make, shape):
        for keep in (False, True):
            yield make(shape), tuple(range(len(shape)))[-1:], keep


@numpy_kwargs
def logsumexp(input, dim, keepdim=False) -> Tensor:
    """log(sum(exp(input))) over `dim`, computed stably (`torch.logsumexp`)."""
    return Logsumexp.apply(input, dims_of(dim, input.ndim), keepdim)


def log_softmax(input, dim, dtype=None) -> Tensor:
    if dtype is not None:
        input = input.to(dtype)
    d = dim_of(dim, input.ndim)
    _softmax_floats_only("log_softmax", input, d)
    return LogSoftmax.apply(input, d)


def _floating_only(input) -> None:
    if input._data.dtype.kind not in "fc":
        raise RuntimeError("std and var only support floating point and complex dtypes")


@numpy_kwargs
def var(input, dim=None, unbiased=True, keepdim=False, *, correction=None) -> Tensor:
    _floating_only(input)
    c = (1 if unbiased else 0) if correction is None else correction
    d = None if dim is None else dims_of(dim, input.ndim)
    return Var.apply(input, d, c, keepdim)


@numpy_kwargs
def std(input, dim=None, unbiased=True, keepdim=False, *, correction=None) -> Tensor:
    _floating_only(input)
    c = (1 if unbiased else 0) if correction is None else correction
    d = None if dim is None else dims_of(dim, input.ndim)
    return Std.apply(input, d, c, keepdim)
