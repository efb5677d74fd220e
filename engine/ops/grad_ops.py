"""First derivatives as ops of their own: PyTorch's `tanh_backward`, `sigmoid_backward`,
`threshold_backward` (relu's) and `leaky_relu_backward`.

A backward written as plain Tensor arithmetic records MulBackward0 & co. under
`create_graph=True`; PyTorch computes these derivatives with dedicated kernels, so
`x.grad.grad_fn` prints TanhBackwardBackward0, ThresholdBackwardBackward0 ... . Each class
here is that kernel, with its own derivatives (the second derivatives of the original op).
The other activations' kernels are in `grad_ops_activations.py` and `grad_ops_gated.py`, the
losses' in `grad_ops_losses.py`.
"""
from __future__ import annotations

import numpy as np

from ..tensor import new_tensor
from ._exact import one_minus_square
from ._op import Op


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
