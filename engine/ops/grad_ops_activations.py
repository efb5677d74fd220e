"""The activations' derivative kernels as ops of their own (softplus, elu, gelu, log-sigmoid,
hardtanh, hardsigmoid, hardswish): under `create_graph=True` their gradients print PyTorch's
...BackwardBackward0 nodes (grad_ops.py says why these are ops).
"""
from __future__ import annotations

import math

import numpy as np

from ..tensor import Tensor, new_tensor
from ._exact import F32, SMALL, via64
from ._op import Op, Underivable
from .grad_ops import SigmoidBackward


# ---- activations' derivative kernels -------------------------------------------------------
# Each forward is PyTorch's CPU kernel in its order of roundings; each backward is the
# derivatives.yaml entry of that kernel (`softplus_double_backward`, `elu_double_backward`,
# `gelu_double_backward`, `log_sigmoid_double_backward`), so `create_graph=True` records the
# same nodes as PyTorch.
_exp64, _tanh64 = via64(np.exp), via64(np.tanh)


def _mask(cond: np.ndarray, like: Tensor) -> Tensor:
    """PyTorch's `(cond).type_as(grad)`: a constant 0/1 tensor."""
    return new_tensor(cond.astype(like._data.dtype))


class SoftplusBackward(Op):
    """out = grad_output * sigmoid(beta * self), grad_output where beta * self > threshold"""
    grad_fn_name, name, n_inputs = "SoftplusBackwardBackward0", "softplus_backward", 2
    saves = ("beta", "grad_output", "self", "threshold")
    rule = "the same kernel on grad, beta * sigmoid'(beta * self) * grad * grad_output"

    def forward(grad_output, self, beta, threshold):
        z = self * beta
        if z.dtype == F32 and z.size <= SMALL:      # PyTorch: grad * e / (e + 1)
            e = _exp64(np.minimum(z, threshold))
            soft = grad_output * e / (e + 1)
        else:
            soft = grad_output / (1 + np.exp(-z))
        return np.where(z > threshold, grad_output, soft).astype(self.dtype, copy=False)

    def backward(ctx, grad):
        from .arithmetic import MulScalar
        a, b = ctx.needs_input_grad
        x, beta, th = ctx.self, ctx.beta, ctx.threshold
        gx = None
        if b:
            z = MulScalar.apply(x, beta)
            s = SigmoidBackward.apply(grad * ctx.grad_output, z.sigmoid())
            gx = MulScalar.apply(s * _mask(z._data < th, grad), beta)
        return (SoftplusBackward.apply(grad, x, beta, th) if a else None, gx)

    @classmethod
    def sample_inputs(cls, make, shape):
        yield make(shape), make(shape), 1.0, 20.0
        yield make(shape), make(shape, 0.6, 2.0), 2.0, 1.0


class EluBackward(Op):
    """out = grad_output * scale where self > 0,
    grad_output * input_scale * alpha * scale * e**(input_scale * self) elsewhere"""
    grad_fn_name, name, n_inputs = "EluBackwardBackward0", "elu_backward", 2
    saves = ("alpha", "grad_output", "input_scale", "is_result", "scale", "self_or_result")
    rule = "the same kernel on grad, that kernel times [self < 0] (to self)"

    def forward(grad_output, self_or_result, alpha, scale, input_scale, is_result=False):
        x, g = self_or_result, grad_output
        if is_result:       # in place (elu_, selu_, celu_): x is the output, e**.. is x + alpha
            neg = g * input_scale * (x + alpha * scale)
        else:
            neg = g * input_scale * (alpha * scale) * _exp64(x * input_scale)     # PyTorch's order
        return np.where(x <= 0, neg, g * scale).astype(g.dtype, copy=False)

    def backward(ctx, grad):
        from .arithmetic import MulScalar
        a, b = ctx.needs_input_grad
        x, al, sc, isc = ctx.self_or_result, ctx.alpha, ctx.scale, ctx.input_scale
        res = ctx.is_result
        gx = None
        if b:       # PyTorch's elu_double_backward
            gg = MulScalar.apply(grad * ctx.grad_output, isc)
            if not res:
                gg = EluBackward.apply(gg, x, al, sc, isc)
            gx = gg * _mask(x._data < 0, grad)
        return (EluBackward.apply(grad, x, al, sc, isc, res) if a else None, gx)

    @classmethod
    def sample_inputs(cls, make, shape):
        yield make(shape), make(shape).detach(), 0.5, 1.0, 1.0
        yield make(shape), make(shape).detach(), 0.5, 1.5, 2.0, True


# PyTorch's double constants: dt(...) rounds them to float32 for float32 tensors only
_K_ALPHA = math.sqrt(0.5)                                   # M_SQRT1_2
_K_BETA = 2 / math.sqrt(math.pi) * math.sqrt(0.5) * 0.5     # 1 / sqrt(2 pi)
_K_BETA_TANH = math.sqrt(2) * 2 / math.sqrt(math.pi) * 0.5  # sqrt(2 / pi)
_KAPPA = 0.044715
_erf_scalar = np.frompyfunc(math.erf, 1, 1)


def _erf64(x: np.ndarray) -> np.ndarray:
    return np.asarray(_erf_scalar(x.astype(np.float64)), dtype=np.float64).astype(x.dtype)


class GeluBackward(Op):
    """out = grad_output * (Phi(self) + self * phi(self)) (the tanh form's derivative for
    approximate='tanh')"""
    grad_fn_name, name, n_inputs = "GeluBackwardBackward0", "gelu_backward", 2
    saves = ("approximate", "grad_output", "self")
    rule = "the same kernel on grad, gelu'' * grad * grad_output (to self)"

    def forward(grad_output, self, approximate="none"):
        x, dt = self, self.dtype.type
        if approximate == "tanh":       # PyTorch's kernel, its order
            x_sq = x * x
            inner = dt(_K_BETA_TANH) * (x + dt(_KAPPA) * (x_sq * x))
            t = _tanh64(inner)
            left, right = dt(0.5) * x, dt(1) + t
            right_d = left * (dt(1) - t * t) * (dt(_K_BETA_TANH) * (
                dt(1) + dt(3) * dt(_KAPPA) * x_sq))
            return (grad_output * (dt(0.5) * right + right_d)).astype(x.dtype, copy=False)
        cdf = dt(0.5) * (dt(1) + _erf64(x * dt(_K_ALPHA)))
        pdf = dt(_K_BETA) * _exp64(x * x * dt(-0.5))
        return (grad_output * (cdf + x * pdf)).astype(x.dtype, copy=False)

    def backward(ctx, grad):
        a, b = ctx.needs_input_grad
        x, ap = ctx.self, ctx.approximate
        return (GeluBackward.apply(grad, x, ap) if a else None,
                grad * ctx.grad_output * _gelu_second(x, ap) if b else None)

    @classmethod
    def sample_inputs(cls, make, shape):
        yield make(shape), make(shape), "none"
        yield make(shape), make(shape), "tanh"


def _gelu_second(x: Tensor, approximate: str) -> Tensor:
    """gelu''(x) as PyTorch's gelu_double_backward writes it, in Tensor ops."""
    from .arithmetic import MulScalar
    if approximate == "tanh":
        beta, kappa = float(_K_BETA_TANH), float(_KAPPA)
        inner = MulScalar.apply(x + MulScalar.apply(x ** 3, kappa), beta)
        t = inner.tanh()
        sech = 1 / inner.cosh()
        f = MulScalar.apply(x, 0.5)
        g = 1 - t * t
        h = MulScalar.apply(MulScalar.apply(x * x, 3 * kappa) + 1, beta)
        f_prime_gh = MulScalar.apply(g, 0.5) * h
        g_prime = MulScalar.apply(sech, 2) * (-sech * t) * h
        h_prime = MulScalar.apply(MulScalar.apply(x, 6 * kappa), beta)
        return f_prime_gh + f_prime_gh + f * h * g_prime + f * g * h_prime
    x_sq = x * x
    pdf = MulScalar.apply(MulScalar.apply(x_sq, -0.5).exp(), float(_K_BETA))
    return MulScalar.apply(pdf, 2) - x_sq * pdf


class LogSigmoidBackward(Op):
    """out = grad_output * (1 - sigmoid(self)), from the forward's buffer e**-|self|"""
    grad_fn_name, name, n_inputs = "LogSigmoidBackwardBackward0", "log_sigmoid_backward", 2
    saves = ("buffer", "grad_output", "self")
    rule = "the same kernel on grad, grad * grad_output * (s - 1) * s (to self)"

    def forward(grad_output, self, buffer):
        # buffer is the forward's e**-|self| (saved as PyTorch saves it); recomputed here from
        # self, the same bits, so this stays a function of its inputs
        dt, buffer = self.dtype.type, _exp64(-np.abs(self))
        neg = self < 0                  # PyTorch's kernel: (max_deriv - sign * b / (1 + b)) * g
        d = np.where(neg, dt(1), dt(0)) - np.where(neg, dt(1), dt(-1)) * (buffer / (1 + buffer))
        return (d * grad_output).astype(self.dtype, copy=False)

    def backward(ctx, grad):
        from .arithmetic import SubScalar
        a, b = ctx.needs_input_grad
        x = ctx.self
        gx = None
        if b:
            z = x.sigmoid()
            gx = grad * ctx.grad_output * SubScalar.apply(z, 1) * z
        return (LogSigmoidBackward.apply(grad, x, ctx.buffer) if a else None, gx)

    @classmethod
    def sample_inputs(cls, make, shape):
        x = make(shape)
        yield make(shape), x, new_tensor(np.exp(-np.abs(x._data)))


class HardtanhBackward(Op):
    """out = grad_output where min_val < self < max_val, else 0"""
    grad_fn_name, name, n_inputs = "HardtanhBackwardBackward0", "hardtanh_backward", 2
    saves = ("max_val", "min_val", "self")
    rule = "the same mask applied to grad (to grad_output), 0 (to self)"

    def forward(grad_output, self, min_val, max_val):
        out = (self <= min_val) | (self >= max_val)
        return np.where(out, grad_output.dtype.type(0), grad_output)

    def backward(ctx, grad):
        a, b = ctx.needs_input_grad
        return (HardtanhBackward.apply(grad, ctx.self, ctx.min_val, ctx.max_val) if a else None,
                new_tensor(np.zeros_like(grad._data)) if b else None)

    @classmethod
    def sample_inputs(cls, make, shape):
        yield make(shape), make(shape).detach(), -0.5, 0.5


class HardsigmoidBackward(Underivable):
    """out = grad_output / 6 where -3 < self < 3, else 0 (no derivative of its own)"""
    # PyTorch defines no derivative for hardsigmoid_backward: under create_graph its result
    # is an Underivable's
    grad_fn_name, name, n_inputs = "NotImplemented", "hardsigmoid_backward", 2

    def forward(grad_output, self):
        dt = self.dtype.type
        inside = (self > dt(-3)) & (self < dt(3))
        return np.where(inside, grad_output * dt(1 / 6), dt(0)).astype(self.dtype, copy=False)

    def backward(ctx, grad):
        raise RuntimeError("derivative for aten::hardsigmoid_backward is not implemented")

    @classmethod
    def sample_inputs(cls, make, shape):
        yield make(shape), make(shape, -4.0, 4.0)


class HardswishBackward(Op):
    """out = 0 where self <= -3, grad_output * (self / 3 + 0.5) where self < 3, else
    grad_output"""
    grad_fn_name, name, n_inputs = "HardswishBackwardBackward0", "hardswish_backward", 2
    saves = ("grad_output", "self")
    rule = "the same kernel on grad, grad * grad_output / 3 where -3 < self < 3 (to self)"

    def forward(grad_output, self):
        dt = self.dtype.type
        mid = grad_output * (self / dt(3) + dt(0.5))
        out = np.where(self < dt(3), mid, grad_output)
        return np.where(self <= dt(-3), dt(0), out).astype(self.dtype, copy=False)

    def backward(ctx, grad):
        from .elementwise import where
        from .nn_ops import DivScalar
        a, b = ctx.needs_input_grad
        x = ctx.self
        gx = None
        if b:
            inside = (x > -3.0) & (x < 3.0)
            gx = where(inside, DivScalar.apply(grad * ctx.grad_output, 3.0),
                       new_tensor(np.zeros((), x._data.dtype)))
        return (HardswishBackward.apply(grad, x) if a else None, gx)

    @classmethod
    def sample_inputs(cls, make, shape):
        yield make(shape), make(shape, -4.0, 4.0)
