"""Shrinkage activations (`F.hardshrink`, `F.softshrink`) and their derivative kernels.

PyTorch counterparts: `hardshrink`/`hardshrink_backward` and `softshrink`/
`softshrink_backward`. Both derivatives are the same mask (0 on [-lambd, lambd], grad
elsewhere), but PyTorch keeps them as two kernels with their own ...BackwardBackward0 nodes,
so they are two ops here too.
"""
from __future__ import annotations

import numpy as np

from ..tensor import new_tensor
from ._op import Op


def _inside(x: np.ndarray, lambd: float) -> np.ndarray:
    """Where -lambd <= x <= lambd, compared in x's dtype as PyTorch's kernels do."""
    lam = x.dtype.type(lambd)
    return (x >= -lam) & (x <= lam)


class HardshrinkBackward(Op):
    """out = grad_output where |self| > lambd, else 0"""
    grad_fn_name, name, n_inputs = "HardshrinkBackwardBackward0", "hardshrink_backward", 2
    saves = ("lambd", "self")
    rule = "the same mask applied to grad (to grad_out), 0 (to self)"

    def forward(grad_output, self, lambd):
        return np.where(_inside(self, lambd), grad_output.dtype.type(0), grad_output)

    def backward(ctx, grad):
        a, b = ctx.needs_input_grad
        return (HardshrinkBackward.apply(grad, ctx.self, ctx.lambd) if a else None,
                new_tensor(np.zeros_like(grad._data)) if b else None)

    @classmethod
    def sample_inputs(cls, make, shape):
        yield make(shape), make(shape).detach(), 0.3


class SoftshrinkBackward(HardshrinkBackward):
    """out = grad_output where |self| > lambd, else 0 (softshrink's own kernel)"""
    grad_fn_name, name = "SoftshrinkBackwardBackward0", "softshrink_backward"

    def backward(ctx, grad):
        a, b = ctx.needs_input_grad
        return (SoftshrinkBackward.apply(grad, ctx.self, ctx.lambd) if a else None,
                new_tensor(np.zeros_like(grad._data)) if b else None)


class Hardshrink(Op):
    """out = self where |self| > lambd, else 0"""
    grad_fn_name, name = "HardshrinkBackward0", "hardshrink"
    saves = ("lambd", "self")
    rule = "grad where |self| > lambd, else 0"

    def forward(self, lambd=0.5):
        return np.where(_inside(self, lambd), self.dtype.type(0), self)

    def backward(ctx, grad):
        return (HardshrinkBackward.apply(grad, ctx.self, ctx.lambd),)

    @classmethod
    def sample_inputs(cls, make, shape):
        yield make(shape), 0.3


class Softshrink(Op):
    """out = self - lambd where self > lambd, self + lambd where self < -lambd, else 0"""
    grad_fn_name, name = "SoftshrinkBackward0", "softshrink"
    saves = ("lambd", "self")
    rule = "grad where |self| > lambd, else 0"

    def forward(self, lambd=0.5):
        lam = self.dtype.type(lambd)
        # the kernel's `self * 0` in the middle keeps the sign: -0.2 shrinks to -0.
        return np.where(self > lam, self - lam, np.where(self < -lam, self + lam, self * 0))

    def backward(ctx, grad):
        return (SoftshrinkBackward.apply(grad, ctx.self, ctx.lambd),)

    @classmethod
    def sample_inputs(cls, make, shape):
        yield make(shape), 0.3


__all__ = ["Hardshrink", "HardshrinkBackward", "Softshrink", "SoftshrinkBackward"]
