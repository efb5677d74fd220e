"""`F.soft_margin_loss` as the node of its own PyTorch records, and its derivative kernel.

PyTorch counterparts: `soft_margin_loss` (SoftMarginLossBackward0) and
`soft_margin_loss_backward` (SoftMarginLossBackwardBackward0). out = log(1 + exp(-target *
self)), reduced. PyTorch gives no derivative for the target, so it is passed as a plain
argument (the node's one edge is `self`); the functional refuses a target that requires grad.
Each forward follows PyTorch's in-place kernel steps, so float32 values round as there.
"""
from __future__ import annotations

import numpy as np

from ..tensor import new_tensor
from ._exact import via64
from ._op import Op
from .losses import MEAN, NONE, _reduce

_exp64, _log1p64 = via64(np.exp), via64(np.log1p)


def _as(target, like: np.ndarray) -> np.ndarray:
    return target._data.astype(like.dtype, copy=False)


class SoftMarginLossBackward(Op):
    """out = -target * z / (1 + z) * grad_output (/ numel for the mean), z = exp(-target * self)
    """
    grad_fn_name, name, n_inputs = ("SoftMarginLossBackwardBackward0",
                                    "soft_margin_loss_backward", 2)
    saves = ("grad_output", "reduction", "self", "target")
    rule = "the same kernel on grad (to grad_output), target**2 z / (1 + z)**2 (to self)"

    def forward(grad_output, self, target, reduction):
        dt = self.dtype.type
        t = _as(target, self)
        z = _exp64(-t * self)
        g = (t * z) * dt(-(1.0 / self.size if reduction == MEAN else 1.0))
        return (g / (z + dt(1)) * grad_output).astype(self.dtype, copy=False)

    def backward(ctx, grad):
        a, b = ctx.needs_input_grad
        x, t, r = ctx.self, ctx.target, ctx.reduction
        d_out = d_self = None
        if a:       # PyTorch's soft_margin_loss_double_backward_grad_output
            if r == NONE:
                d_out = SoftMarginLossBackward.apply(grad, x, t, r)
            else:
                ones = new_tensor(np.ones_like(ctx.grad_output._data))
                d_out = (SoftMarginLossBackward.apply(ones, x, t, r) * grad).sum()
        if b:       # soft_margin_loss_double_backward
            z = (x * -t).exp()
            zp1 = z + 1
            d_self = t * t * (grad * ctx.grad_output) * z / (zp1 * zp1)
            if r == MEAN:
                d_self = d_self / x._data.size
        return d_out, d_self

    @classmethod
    def sample_inputs(cls, make, shape):
        sign = new_tensor(np.sign(make(shape)._data) + 0.5)
        yield make(()), make(shape), sign, MEAN
        yield make(shape), make(shape), sign, NONE


class SoftMarginLoss(Op):
    """out = reduce(log1p(exp(-self * target)))"""
    grad_fn_name, name = "SoftMarginLossBackward0", "soft_margin_loss"
    saves = ("reduction", "self", "target")
    rule = "-target * sigmoid(-target * self) * grad (/ numel for the mean)"

    def forward(self, target, reduction=MEAN):
        loss = _log1p64(_exp64(-self * _as(target, self)))
        return _reduce(loss.astype(self.dtype, copy=False), reduction)

    def backward(ctx, grad):
        return (SoftMarginLossBackward.apply(grad, ctx.self, ctx.target, ctx.reduction),)

    @classmethod
    def sample_inputs(cls, make, shape):
        sign = new_tensor(np.sign(make(shape)._data) + 0.5)
        for r in (MEAN, 2, NONE):
            yield make(shape), sign, r


__all__ = ["SoftMarginLoss", "SoftMarginLossBackward"]
