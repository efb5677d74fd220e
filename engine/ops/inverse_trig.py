"""Inverse trigonometry beyond asin/atan: `torch.acos` and the two-argument `torch.atan2`.

The float32 values are computed in float64 and rounded once (NOTE [float32 transcendentals]
in `_exact.py`); for atan2 that gives PyTorch's bits for ~97% of long vectors but only ~83% of
short ones and single values (its vectorised Sleef kernel and its scalar libm call are not
correctly rounded).
"""
from __future__ import annotations

import numpy as np

from ..tensor import Tensor
from . import _samples
from ._broadcast import sum_to
from ._exact import F32, SMALL, via64
from ._op import Op
from .elementwise import _unary

Acos = _unary("AcosBackward0", "acos", via64(np.arccos), "-grad / sqrt(1 - self**2)",
              ("self",), lambda ctx, g: (g * -((-ctx.self * ctx.self + 1).rsqrt()),),
              -0.9, 0.9)


class Atan2(Op):
    """out = angle of the point (other, self), in (-pi, pi]"""
    grad_fn_name, name, n_inputs = "Atan2Backward0", "atan2", 2
    saves = ("other", "self")
    rule = "grad * other / (self**2 + other**2), -grad * self / (self**2 + other**2)"
    float_only = True

    def forward(self, other):
        if self.dtype == F32 and other.dtype == F32 and max(self.size, other.size) <= SMALL:
            return np.arctan2(self, other, dtype=np.float64).astype(F32)
        return np.asarray(np.arctan2(self, other))

    def backward(ctx, grad):
        a, b = ctx.needs_input_grad
        x, y = ctx.self, ctx.other
        denom = x * x + y * y                  # PyTorch's atan2_backward: 0 at the origin
        recip = denom.reciprocal().masked_fill(denom == 0, 0)
        return (sum_to(grad * y * recip, x._data.shape) if a else None,
                sum_to(grad * -x * recip, y._data.shape) if b else None)

    def jvp(ctx, self_t, other_t):     # PyTorch's (-self * other_t + other * self_t) / r²
        x, y = ctx.self, ctx.other
        left = None if other_t is None else -x * other_t
        right = None if self_t is None else y * self_t
        num = right if left is None else left if right is None else left + right
        return num / (x.pow(2) + y.pow(2))

    sample_inputs = classmethod(lambda cls, make, shape: _samples.binary(make, shape, 0.2, 2.0))


def acos(input) -> Tensor:
    """Elementwise arccosine, in [0, pi] (`torch.acos`)."""
    return Acos.apply(input)


def atan2(input, other) -> Tensor:
    """Elementwise arctangent of input / other, using both signs for the quadrant
    (`torch.atan2`).

    Example:
        >>> import gradstep.engine as torch
        >>> torch.atan2(torch.tensor([1.0]), torch.tensor([1.0])).tolist()
        [0.7853981852531433]
    """
    return Atan2.apply(input, other)
