"""`torch.xlogy`: x * log(y), defined as 0 where x is 0 (the x log x terms of entropies and of
`F.kl_div`).

PyTorch counterpart: `torch.xlogy` (`XlogyBackward0`). Inputs broadcast and the backward
reduces through `sum_to`. PyTorch's CPU kernel is scalar: a float32 `log` (correctly rounded,
so computed here in float64 and rounded once) times x, rounded again.
"""
from __future__ import annotations

import numpy as np

from ..tensor import Tensor
from . import _samples
from ._broadcast import sum_to
from ._exact import F32
from ._op import Op


class Xlogy(Op):
    """out = self * log(other); 0 where self == 0 (unless other is nan)"""
    grad_fn_name, name, n_inputs = "XlogyBackward0", "xlogy", 2
    saves = ("other", "self")
    rule = "xlogy(grad, other) (0 where self == 0 and other <= 0), grad * self / other"
    float_only = True

    def forward(self, other):
        x, y = np.broadcast_arrays(self, other)
        dt = np.result_type(x, y)
        log = np.log(y, dtype=np.float64).astype(F32) if dt == F32 else np.log(y.astype(dt))
        out = np.asarray(x * log, dtype=dt)
        out[(x == 0) & ~np.isnan(y)] = 0
        return out

    def backward(ctx, grad):
        a, b = ctx.needs_input_grad
        x, y = ctx.self, ctx.other
        ga = gb = None
        if a:
            ga = Xlogy.apply(grad, y).masked_fill((x == 0.0) & (y <= 0.0), 0.0)
            ga = sum_to(ga, x._data.shape)
        if b:
            gb = sum_to(grad * x / y, y._data.shape)
        return ga, gb

    sample_inputs = classmethod(lambda cls, make, shape: _samples.binary(make, shape, 0.2, 2.0))


def xlogy(input, other) -> Tensor:
    """Elementwise input * log(other), 0 where input is 0 (`torch.xlogy`).

    Example:
        >>> import gradstep.engine as torch
        >>> torch.xlogy(torch.tensor([0.0, 2.0]), torch.tensor([0.0, 1.0])).tolist()
        [0.0, 0.0]
    """
    from ..factories import tensor
    input = input if isinstance(input, Tensor) else tensor(input)
    other = other if isinstance(other, Tensor) else tensor(other)
    return Xlogy.apply(input, other)
