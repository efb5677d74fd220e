"""The gated and learnable activations: GLU (`GluBackward0`) and PReLU
(`PreluKernelBackward0`), the ops behind `F.glu`/`nn.GLU` and `F.prelu`/`nn.PReLU`.

Their derivative kernels are in `grad_ops_gated.py`, the argument checks in
`engine/nn/functional.py`.
"""
from __future__ import annotations

import numpy as np

from ._broadcast import sum_to
from ._op import Op
from .grad_ops_gated import GluBackward, PreluKernelBackward
from .nn_ops import _via64_exp


class Glu(Op):
    """out = a * sigmoid(b), a and b the halves of self along dim"""
    grad_fn_name, name, saves = "GluBackward0", "glu", ("dim", "self")
    rule = "cat(sigmoid(b) * grad, a * sigmoid(b) * (1 - sigmoid(b)) * grad)"

    def forward(self, dim=-1):          # dim as PyTorch's node keeps it (see F.glu)
        a, b = np.split(self, 2, axis=signed_dim(dim))
        one = self.dtype.type(1)
        return a * (one / (one + _via64_exp(-b)))      # PyTorch's kernel, its order

    def backward(ctx, grad):        # PyTorch's glu_backward, its own node
        return (GluBackward.apply(grad, ctx.self, ctx.dim),)

    @classmethod
    def sample_inputs(cls, make, shape):
        yield make(tuple(shape[:-1]) + (2 * shape[-1],) if shape else (2,)), 2 ** 64 - 1


def signed_dim(dim: int) -> int:
    """glu's dim back from the unsigned 64-bit form its node saves (-1 reads 2**64 - 1)."""
    return dim - 2 ** 64 if dim >= 2 ** 63 else dim


class Prelu(Op):
    """out = self where self > 0, weight * self elsewhere (weight broadcast over channels)"""
    grad_fn_name, name, n_inputs = "PreluKernelBackward0", "_prelu_kernel", 2
    saves = ("self", "weight")
    rule = "grad where self > 0, weight * grad elsewhere; sum of self * grad there (to weight)"

    def forward(self, weight):
        return np.where(self > 0, self, weight * self)

    def backward(ctx, grad):        # PyTorch's _prelu_kernel_backward: one node, two outputs
        a, b = ctx.needs_input_grad
        w = ctx.weight
        gx, gw = PreluKernelBackward.apply(grad, ctx.self, w)
        return (gx if a else None, sum_to(gw, w._data.shape) if b else None)

    @classmethod
    def sample_inputs(cls, make, shape):
        x = make(shape)
        x._data[np.abs(x._data) < 0.1] = 0.5      # away from the kink at 0
        yield x, make(tuple(n if i == 1 else 1 for i, n in enumerate(shape)))   # per channel


__all__ = ["Glu", "Prelu"]
