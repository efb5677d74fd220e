"""Randomized leaky ReLU (`F.rrelu`, `nn.RReLU`) and its derivative kernel.

PyTorch counterpart: `rrelu_with_noise` / `rrelu_with_noise_backward`. In training mode each
element <= 0 is multiplied by its own slope drawn from U(lower, upper), and the slopes are kept
as `noise` (1 for the other elements) for the backward; in eval mode it is a leaky ReLU with
slope (lower + upper) / 2. The caller draws the noise (it owns the generator) and passes it in
as a tensor, so forward stays a pure function of its arguments.
"""
from __future__ import annotations

import numpy as np

from ..tensor import Tensor, new_tensor
from ._op import Op


def _slope(lower: float, upper: float) -> float:
    return (lower + upper) / 2


def _noisy(training: bool, lower: float, upper: float) -> bool:
    # PyTorch multiplies by the noise only when the range is not (numerically) one value
    return training and upper - lower > 1e-6


class RreluWithNoiseBackward(Op):
    """out = grad_output * noise (training), else leaky_relu_backward with the mean slope"""
    grad_fn_name, name, n_inputs = ("RreluWithNoiseBackwardBackward0",
                                    "rrelu_with_noise_backward", 2)
    saves = ("lower", "noise", "self", "training", "upper")
    rule = "the same kernel on grad (to grad_output), 0 (to self)"

    def forward(grad_output, self, noise, lower, upper, training):
        if _noisy(training, lower, upper):
            return grad_output * noise._data
        slope = grad_output.dtype.type(_slope(lower, upper))
        return np.where(self > 0, grad_output, grad_output * slope)

    def backward(ctx, grad):
        a, b = ctx.needs_input_grad
        again = RreluWithNoiseBackward.apply(grad, ctx.self, ctx.noise, ctx.lower, ctx.upper,
                                             ctx.training) if a else None
        return again, (new_tensor(np.zeros_like(grad._data)) if b else None)

    @classmethod
    def sample_inputs(cls, make, shape):
        x = make(shape).detach()
        yield make(shape), x, new_tensor(np.ones_like(x._data)), 0.1, 0.3, False


class RreluWithNoise(Op):
    """out = self * noise where self <= 0 (training), self * (lower + upper) / 2 (eval)"""
    grad_fn_name, name = "RreluWithNoiseBackward0", "rrelu_with_noise"
    saves = ("lower", "noise", "self", "training", "upper")
    rule = "grad * noise (training), grad or grad * slope by the sign of self (eval)"

    def forward(self, noise, lower, upper, training):
        if training:
            return np.where(self <= 0, self * noise._data, self)
        return np.where(self > 0, self, self * self.dtype.type(_slope(lower, upper)))

    def backward(ctx, grad):
        return (RreluWithNoiseBackward.apply(grad, ctx.self, ctx.noise, ctx.lower, ctx.upper,
                                             ctx.training),)

    @classmethod
    def sample_inputs(cls, make, shape):
        x = make(shape)
        yield x, new_tensor(np.ones_like(x._data)), 0.1, 0.3, False


class RreluWithNoiseInplace(RreluWithNoise):
    """self = rrelu(self) in place (rrelu_): the backward reads the output's sign"""
    grad_fn_name, name = "RreluWithNoiseBackward1", "rrelu_with_noise_"
    saves = ("lower", "noise", "result", "training", "upper")

    def backward(ctx, grad):     # the output has the input's sign, so it serves as `self`
        return (RreluWithNoiseBackward.apply(grad, ctx.result, ctx.noise, ctx.lower,
                                             ctx.upper, ctx.training),)


def draw_noise(x: Tensor, lower: float, upper: float, generator) -> Tensor:
    """The training-mode slopes: U(lower, upper) for each element <= 0, 1 elsewhere.

    As PyTorch's CPU kernel: one float64 uniform per such element, in memory order, from
    bounds first rounded to the input's dtype, then the slope rounded to that dtype.
    """
    dt = x._data.dtype.type
    neg = x._data <= 0
    noise = np.ones_like(x._data)
    draws = generator.uniform(int(neg.sum()), np.float64, float(dt(lower)), float(dt(upper)))
    noise[neg] = draws.astype(x._data.dtype)
    return new_tensor(noise)


__all__ = ["RreluWithNoise", "RreluWithNoiseInplace", "RreluWithNoiseBackward", "draw_noise"]
