"""First derivatives as ops of their own: PyTorch's `tanh_backward`, `sigmoid_backward`,
`threshold_backward` (relu's) and `mse_loss_backward`.

A backward written as plain Tensor arithmetic records MulBackward0 & co. under
`create_graph=True`; PyTorch computes these derivatives with dedicated kernels, so
`x.grad.grad_fn` prints TanhBackwardBackward0, ThresholdBackwardBackward0 ... . Each class
here is that kernel, with its own derivatives (the second derivatives of the original op).
"""
from __future__ import annotations

import math

import numpy as np

from .. import _events
from ..grad_mode import state as _grad_state
from ..tensor import Tensor, new_tensor
from ._broadcast import sum_to
from ._exact import F32, SMALL, one_minus_square, via64
from ._op import Op
from .join import _MultiNode

MEAN, SUM = 1, 2      # reductions as losses.py numbers them (0 is none)


class TanhBackward(Op):
    """out = grad_output * (1 - output**2)"""
    grad_fn_name, name, n_inputs = "TanhBackwardBackward0", "tanh_backward", 2
    saves = ("grad_output", "output")
    rule = "grad * (1 - output**2), -2 * grad * grad_output * output"

    def forward(grad_output, output):
        t = one_minus_square(output)        # rounded once, as PyTorch's fused kernel does
        if t.shape == grad_output.shape and t.dtype == grad_output.dtype:
            return np.multiply(grad_output, t, out=t)     # into the fresh buffer
        return grad_output * t

    def backward(ctx, grad):
        a, b = ctx.needs_input_grad
        out = ctx.output
        return (TanhBackward.apply(grad, out) if a else None,
                grad * ctx.grad_output * out * -2 if b else None)

    @classmethod
    def sample_inputs(cls, make, shape):
        yield make(shape), make(shape, -0.9, 0.9)


class SigmoidBackward(Op):
    """out = grad_output * output * (1 - output)"""
    grad_fn_name, name, n_inputs = "SigmoidBackwardBackward0", "sigmoid_backward", 2
    saves = ("grad_output", "output")
    rule = "grad * output * (1 - output), grad * grad_output * (1 - 2 * output)"

    def forward(grad_output, output):
        # PyTorch's kernel order, (grad * (1 - y)) * y: other orders round differently
        return grad_output * (1 - output) * output

    def backward(ctx, grad):
        a, b = ctx.needs_input_grad
        out = ctx.output
        return (SigmoidBackward.apply(grad, out) if a else None,
                grad * ctx.grad_output * (1 - out * 2) if b else None)

    @classmethod
    def sample_inputs(cls, make, shape):
        yield make(shape), make(shape, 0.1, 0.9)


class ThresholdBackward(Op):
    """out = grad_output where self > threshold, else 0 (relu's derivative)"""
    grad_fn_name, name, n_inputs = "ThresholdBackwardBackward0", "threshold_backward", 2
    saves = ("self", "threshold")
    rule = "grad where self > threshold (to grad_output), 0 (to self)"

    def forward(grad_output, self, threshold):
        return np.where(self <= threshold, 0, grad_output).astype(grad_output.dtype)

    def backward(ctx, grad):
        a, b = ctx.needs_input_grad
        return (ThresholdBackward.apply(grad, ctx.self, ctx.threshold) if a else None,
                new_tensor(np.zeros_like(grad._data)) if b else None)

    @classmethod
    def sample_inputs(cls, make, shape):
        yield make(shape), make(shape).detach(), 0.0


class MseLossBackward(Op):
    """out = 2 * (self - target) * grad_output (/ numel for the mean)"""
    grad_fn_name, name, n_inputs = "MseLossBackwardBackward0", "mse_loss_backward", 3
    saves = ("grad_output", "reduction", "self", "target")
    rule = "sum of grad * 2 * (self - target), grad * grad_output * 2, and its negative"

    def forward(grad_output, self, target, reduction):
        norm = 2.0 / self.size if reduction == MEAN else 2.0
        return ((self - target) * norm * grad_output).astype(self.dtype, copy=False)

    def backward(ctx, grad):
        a, b, c = ctx.needs_input_grad
        x = ctx.self
        norm = 2.0 / x._data.size if ctx.reduction == MEAN else 2.0
        dx = None
        if b or c:      # PyTorch's mse_loss_double_backward: 2 * (grad * grad_output) / numel
            dx = grad * ctx.grad_output * 2
            dx = dx / x._data.size if ctx.reduction == MEAN else dx
        return (sum_to(grad * (x - ctx.target) * norm, ctx.grad_output._data.shape)
                if a else None, dx if b else None, -dx if c else None)

    @classmethod
    def sample_inputs(cls, make, shape):
        yield make(()), make(shape), make(shape), MEAN
        yield make(shape), make(shape), make(shape), 0


class LeakyReluBackward(Op):
    """out = grad_output where self > 0, negative_slope * grad_output elsewhere"""
    grad_fn_name, name, n_inputs = "LeakyReluBackwardBackward0", "leaky_relu_backward", 2
    saves = ("negative_slope", "self")
    rule = "the same mask applied to grad (to grad_output), 0 (to self)"

    def forward(grad_output, self, negative_slope):
        return np.where(self > 0, grad_output, grad_output * negative_slope).astype(
            grad_output.dtype, copy=False)

    def backward(ctx, grad):
        a, b = ctx.needs_input_grad
        return (LeakyReluBackward.apply(grad, ctx.self, ctx.negative_slope) if a else None,
                new_tensor(np.zeros_like(grad._data)) if b else None)

    @classmethod
    def sample_inputs(cls, make, shape):
        yield make(shape), make(shape).detach(), 0.2


def _norm(x: np.ndarray, reduction: int):
    """The factor PyTorch's loss backward kernels scale by: 1 / numel for a mean, else 1."""
    return x.dtype.type(1 / x.size if reduction == MEAN else 1)


class _PiecewiseLossBackward(Op):
    """Shared by HuberLossBackward and SmoothL1LossBackward: n_inputs 3 (grad_output, self,
    target), then reduction and the width of the quadratic part."""
    n_inputs = 3
    saves = ("grad_output", "reduction", "self", "target", "_width")

    @staticmethod
    def shape_of(width: float) -> tuple:       # (slope inside, cap outside)
        raise NotImplementedError

    @classmethod
    def _backward(cls, ctx, grad):
        a, b, c = ctx.needs_input_grad
        x, t, r, width = ctx.self, ctx.target, ctx.reduction, ctx._width
        dx = None
        if b or c:      # the loss's second derivative: a constant slope inside, 0 outside
            d = (x - t)._data       # (PyTorch: grad * grad_output * inside [/ beta] [/ numel])
            inside = (np.abs(d) < width).astype(d.dtype)
            dx = grad * ctx.grad_output * new_tensor(inside)
            if cls.shape_of(width)[0] != 1:
                dx = dx / width
            if r == MEAN:
                dx = dx / d.size
        # d/d grad_output is this op again with grad in its place, so it stays differentiable
        return (sum_to(cls.apply(grad, x, t, r, width), ctx.grad_output._data.shape)
                if a else None, dx if b else None, -dx if c else None)


class HuberLossBackward(_PiecewiseLossBackward):
    """out = grad_output * (d inside delta, delta * sign(d) outside) (/ numel), d = self - target"""
    grad_fn_name, name = "HuberLossBackwardBackward0", "huber_loss_backward"
    rule = "sum of grad * dloss, grad * grad_output * [|d| < delta], and its negative"
    shape_of = staticmethod(lambda delta: (1.0, delta))

    def forward(grad_output, self, target, reduction, _width):
        # PyTorch's kernel: norm * d * g inside, +-norm * g * delta outside, norm = 1 / numel
        norm, d = _norm(self, reduction), self - target
        inside = norm * d * grad_output
        outside = np.where(d < 0, -norm, norm) * grad_output * self.dtype.type(_width)
        return np.where(np.abs(d) < _width, inside, outside).astype(self.dtype, copy=False)

    def backward(ctx, grad):
        return HuberLossBackward._backward(ctx, grad)

    @classmethod
    def sample_inputs(cls, make, shape):
        yield make(()), make(shape), make(shape), MEAN, 0.5
        yield make(shape), make(shape), make(shape), 0, 0.5


class SmoothL1LossBackward(_PiecewiseLossBackward):
    """out = grad_output * (d / beta inside beta, sign(d) outside) (/ numel), d = self - target"""
    grad_fn_name, name = "SmoothL1LossBackwardBackward0", "smooth_l1_loss_backward"
    rule = "sum of grad * dloss, grad * grad_output * [|d| < beta] / beta, and its negative"
    shape_of = staticmethod(lambda beta: (1 / beta if beta else 0.0, 1.0))

    def forward(grad_output, self, target, reduction, _width):
        if not _width:
            n = self.size if reduction == MEAN else 1
            return (np.sign(self - target) * grad_output / n).astype(self.dtype, copy=False)
        # PyTorch's kernel: norm * d * g / beta inside, +-norm * g outside, norm = 1 / numel
        norm, d = _norm(self, reduction), self - target
        inside = norm * d * grad_output / self.dtype.type(_width)
        outside = np.where(d < 0, -norm, norm) * grad_output
        return np.where(np.abs(d) < _width, inside, outside).astype(self.dtype, copy=False)

    def backward(ctx, grad):
        return SmoothL1LossBackward._backward(ctx, grad)

    @classmethod
    def sample_inputs(cls, make, shape):
        yield make(()), make(shape), make(shape), MEAN, 0.5
        yield make(shape), make(shape), make(shape), SUM, 0.5


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
        neg = g * input_scale * (alpha * scale) * _exp64(x * input_scale)     # PyTorch's order
        return np.where(x <= 0, neg, g * scale).astype(g.dtype, copy=False)

    def backward(ctx, grad):
        from .arithmetic import MulScalar
        a, b = ctx.needs_input_grad
        x, al, sc, isc = ctx.self_or_result, ctx.alpha, ctx.scale, ctx.input_scale
        gx = None
        if b:
            gg = MulScalar.apply(grad * ctx.grad_output, isc)
            gx = EluBackward.apply(gg, x, al, sc, isc) * _mask(x._data < 0, grad)
        return (EluBackward.apply(grad, x, al, sc, isc) if a else None, gx)

    @classmethod
    def sample_inputs(cls, make, shape):
        yield make(shape), make(shape).detach(), 0.5, 1.0, 1.0


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


class HardsigmoidBackward(Op):
    """out = grad_output / 6 where -3 < self < 3, else 0 (no derivative of its own)"""
    # PyTorch defines no derivative for hardsigmoid_backward: under create_graph its result
    # hangs off a NotImplemented node, with edges only to the inputs that require grad, and
    # differentiating through that node raises
    grad_fn_name, name, n_inputs = "NotImplemented", "hardsigmoid_backward", 2
    rule = "not implemented (PyTorch raises)"
    derivative_orders = 0

    @classmethod
    def apply(cls, grad_output, self):
        out = cls.forward(grad_output._data, self._data)
        wanted = tuple(t for t in (grad_output, self) if t._rg)
        result = new_tensor(out)
        node = None
        if _grad_state.enabled and wanted:
            node = cls._make_node(wanted, result, wanted, None)
        if _events.listener is not None and not _grad_state.quiet:
            _events.listener.on_op(cls.name, (grad_output, self), result, node)
        return result

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


class GluBackward(Op):
    """out = cat(sigmoid(b) * grad_output, (1 - sigmoid(b)) * sigmoid(b) * a * grad_output)
    along dim, where a, b are self's halves"""
    grad_fn_name, name, n_inputs = "GluBackwardBackward0", "glu_backward", 2
    saves = ("dim", "grad_output", "self")
    rule = "PyTorch's glu_double_backward_grad_output and glu_double_backward"

    def forward(grad_output, self, dim):
        from .elementwise import _sigmoid
        from .nn_ops import signed_dim
        dim = signed_dim(dim)
        a, b = np.split(self, 2, axis=dim)
        sig = _sigmoid(b)       # PyTorch's sigmoid kernel, then its fused glu_backward one
        one = self.dtype.type(1)
        return np.concatenate([sig * grad_output, (one - sig) * sig * a * grad_output], axis=dim)

    def backward(ctx, grad):
        from .nn_ops import signed_dim
        a_, b_ = ctx.needs_input_grad
        x, go, saved_dim = ctx.self, ctx.grad_output, ctx.dim
        dim = signed_dim(saved_dim) % x._data.ndim
        n = x._data.shape[dim] // 2
        first, second = x.narrow(dim, 0, n), x.narrow(dim, n, n)
        gg_first, gg_second = grad.narrow(dim, 0, n), grad.narrow(dim, n, n)
        g_go = gx = None
        if a_:      # glu_double_backward_grad_output
            from ..factories import ones
            sizes = list(x._data.shape)
            sizes[dim] = n
            tmp = grad * GluBackward.apply(ones(*sizes, dtype=x.dtype), x, saved_dim)
            g_go = tmp.narrow(dim, 0, n) + tmp.narrow(dim, n, n)
        if b_:      # glu_double_backward
            sig = second.sigmoid()
            one_sub = 1 - sig
            sig_one_sub = sig * one_sub
            gi_first = gg_second * go * sig_one_sub
            second_order = sig_one_sub * one_sub - sig * sig_one_sub
            gi_second = (gg_second * first * go * second_order
                         + gg_first * go * sig_one_sub)
            from .join import cat
            gx = cat([gi_first, gi_second], dim)
        return g_go, gx

    @classmethod
    def sample_inputs(cls, make, shape):
        full = tuple(shape[:-1]) + (2 * shape[-1],) if shape else (2,)
        yield make(tuple(shape) if shape else (1,)), make(full), 2 ** 64 - 1


class PreluKernelBackward(Op):
    """outs = (grad_output where self > 0 else weight * grad_output,
    0 where self > 0 else self * grad_output)"""
    grad_fn_name, name, n_inputs = "PreluKernelBackwardBackward0", "_prelu_kernel_backward", 3
    saves = ("grad_output", "self", "weight")
    rule = "PyTorch's _prelu_kernel_backward derivatives (where self >= 0 ...)"

    node_base = _MultiNode      # one node for both outputs: backward gets both grads

    @classmethod
    def apply(cls, grad_output, self, weight):
        inputs = (grad_output, self, weight)
        outs = tuple(new_tensor(a) for a in cls.forward(*(t._data for t in inputs)))
        node = None
        if _grad_state.enabled and any(t._rg for t in inputs):
            node = cls._make_node(inputs, outs[0], inputs, None)
            node._n_out = 2
            for i, o in enumerate(outs):
                o._rg, o.grad_fn, o._out_nr = True, node, i
        if _events.listener is not None and not _grad_state.quiet:
            for o in outs:
                _events.listener.on_op(cls.name, inputs, o, node)
        return outs

    def forward(grad_output, self, weight):
        pos, dt = self > 0, self.dtype.type
        grad_input = np.where(pos, grad_output, weight * grad_output).astype(self.dtype)
        grad_weight = np.where(pos, dt(0), self * grad_output).astype(self.dtype)
        return grad_input, grad_weight

    def backward(ctx, grads):
        from .elementwise import where
        a, b, c = ctx.needs_input_grad
        g0, g1 = grads
        go, x, w = ctx.grad_output, ctx.self, ctx.weight
        nonneg = x >= 0
        zero = new_tensor(np.zeros((), x._data.dtype))
        g_go = gx = gw = None
        if a:
            if g0 is None:
                g_go = where(nonneg, zero, g1 * x)
            else:
                other = g0 * w if g1 is None else g0 * w + g1 * x
                g_go = where(nonneg, g0, other)
            g_go = sum_to(g_go, go._data.shape)
        if b:
            gx = (where(nonneg, zero, go * g1) if g1 is not None
                  else new_tensor(np.zeros_like(x._data)))
            gx = sum_to(gx, x._data.shape)
        if c:
            gw = (where(nonneg, zero, go * g0) if g0 is not None
                  else new_tensor(np.zeros_like(x._data)))
            gw = sum_to(gw, w._data.shape)
        return g_go, gx, gw

    @classmethod
    def sample_inputs(cls, make, shape):
        x = make(shape)
        x._data[np.abs(x._data) < 0.1] = 0.5      # away from the kink at 0
        yield make(shape), x, make(shape)


_BCE_EPS = 1e-12


class BinaryCrossEntropyBackward(Op):
    """out = grad_output * (self - target) / max((1 - self) * self, 1e-12), weighted (/ numel)"""
    grad_fn_name, n_inputs = "BinaryCrossEntropyBackwardBackward0", 3
    name = "binary_cross_entropy_backward"
    saves = ("grad_output", "reduction", "self", "target", "weight")
    rule = "PyTorch's binary_cross_entropy_double_backward (and _grad_output, _target)"

    def forward(grad_output, self, target, weight=None, reduction=MEAN):
        dt = self.dtype.type        # PyTorch's kernel, then grad_input *= weight, /= numel
        out = grad_output * (self - target) / np.maximum((dt(1) - self) * self, dt(_BCE_EPS))
        if weight is not None:
            out = out * weight._data
        if reduction == MEAN:
            out = out / dt(self.size)
        return out.astype(self.dtype, copy=False)

    def backward(ctx, grad):
        from .arithmetic import AddScalar, MulScalar
        from .nn_ops import DivScalar
        a, b, c = ctx.needs_input_grad
        x, t, w, r, go = ctx.self, ctx.target, ctx.weight, ctx.reduction, ctx.grad_output
        n = x._data.size
        # PyTorch's `1 - input + eps`: 1 - input fills a tensor with 1 and subtracts in place
        one = new_tensor(np.ones_like(x._data))
        x_eps, one_m_eps = AddScalar.apply(x, _BCE_EPS), AddScalar.apply(one - x, _BCE_EPS)
        g_go = gx = gt = None
        if a:       # binary_cross_entropy_double_backward_grad_output
            g_go = (x - t) / (x_eps * one_m_eps) * grad
            g_go = g_go * w if w is not None else g_go
            if r != 0:
                g_go = sum_to(g_go, ())
                g_go = DivScalar.apply(g_go, n) if r == MEAN else g_go
        if b:       # binary_cross_entropy_double_backward
            gx = (x * x - MulScalar.apply(x, 2) * t + t) / (x_eps ** 2 * one_m_eps ** 2)
            gx = gx * (grad * go)
            gx = gx * w if w is not None else gx
            gx = DivScalar.apply(gx, n) if r == MEAN else gx
        if c:       # binary_cross_entropy_double_backward_target
            gt = -grad * go / (x_eps * one_m_eps)
            gt = gt * w if w is not None else gt
            gt = DivScalar.apply(gt, n) if r == MEAN else gt
        return g_go, gx, gt

    @classmethod
    def sample_inputs(cls, make, shape):
        yield make(()), make(shape, 0.1, 0.9), make(shape, 0.0, 1.0), None, MEAN
        yield make(shape), make(shape, 0.1, 0.9), make(shape, 0.0, 1.0), None, 0
