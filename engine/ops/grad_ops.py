"""First derivatives as ops of their own: PyTorch's `tanh_backward`, `sigmoid_backward`,
`threshold_backward` (relu's) and `mse_loss_backward`.

A backward written as plain Tensor arithmetic records MulBackward0 & co. under
`create_graph=True`; PyTorch computes these derivatives with dedicated kernels, so
`x.grad.grad_fn` prints TanhBackwardBackward0, ThresholdBackwardBackward0 ... . Each class
here is that kernel, with its own derivatives (the second derivatives of the original op).
"""
from __future__ import annotations

import numpy as np

from ..tensor import new_tensor
from ._broadcast import sum_to
from ._exact import one_minus_square
from ._op import Op

MEAN, SUM = 1, 2      # reductions as nn_ops numbers them (0 is none)


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
