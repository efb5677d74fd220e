"""The ops behind attention: `_safe_softmax` (SafeSoftmaxBackward0), `torch.baddbmm`
(BaddbmmBackward0) and PyTorch's CPU flash-attention kernel
(ScaledDotProductFlashAttentionForCpuBackward0).

`F.scaled_dot_product_attention` on 3-D inputs is PyTorch's composite "math" path (scaled
matmuls and a safe softmax, each its own node); on 4-D inputs without dropout PyTorch's CPU
build runs one fused kernel, recorded as one node. The engine's version of that node computes
the math path without recording and, in backward, runs it again with recording and
differentiates it (the kernel's own backward recomputes as well).
"""
from __future__ import annotations

import numpy as np

from ..grad_mode import enable_grad, no_grad
from ..grad_mode import state as _grad_state
from ..tensor import Tensor, new_tensor
from .._dual import tangents as _tangents
from ._broadcast import sum_to
from ._fused import inside_kernel, report
from ._op import Op
from ._tangents import has_tangent
from .linalg import Bmm
from .stats import Softmax, SoftmaxBackwardData
from ..autograd.walk import grad as _grad


class SafeSoftmax(Softmax):
    """out = softmax(self) along dim, 0 in rows that are all -inf (masked out entirely)"""
    grad_fn_name, name = "SafeSoftmaxBackward0", "_safe_softmax"

    def forward(self, dim):
        out = Softmax.forward(self, dim)
        dead = np.all(self == -np.inf, axis=dim, keepdims=True)
        return np.where(dead, out.dtype.type(0), out) if dead.any() else out

    def backward(ctx, grad):
        return (SoftmaxBackwardData.apply(grad, ctx.result, ctx.dim),)

    @classmethod
    def sample_inputs(cls, make, shape):
        yield make(shape), -1 if shape else 0


class Baddbmm(Op):
    """out = beta * self + alpha * (batch1 @ batch2), per batch"""
    grad_fn_name, name, n_inputs = "BaddbmmBackward0", "baddbmm", 3
    saves = ("alpha", "batch1", "batch2", "beta", "_self_sym_sizes")
    rule = "beta * grad, alpha * grad @ batch2^T, alpha * batch1^T @ grad"
    promotes = False

    def forward(self, batch1, batch2, beta=1, alpha=1):
        prod = Bmm.forward(batch1, batch2)
        if alpha != 1:
            prod = prod * prod.dtype.type(alpha)
        if beta == 0:           # self is ignored then, nan and inf included
            return prod
        return (self if beta == 1 else self * self.dtype.type(beta)) + prod

    def backward(ctx, grad):
        a, b, c = ctx.needs_input_grad
        g_self = sum_to(grad if ctx.beta == 1 else grad * ctx.beta, tuple(ctx._self_sym_sizes)) \
            if a else None
        g = grad if ctx.alpha == 1 else grad * ctx.alpha
        return (g_self, g.bmm(ctx.batch2.transpose(1, 2)) if b else None,
                ctx.batch1.transpose(1, 2).bmm(g) if c else None)

    @classmethod
    def sample_inputs(cls, make, shape):
        yield make((1, 2, 2)), make((2, 2, 3)), make((2, 3, 2)), 1, 1


def _math(q, k, v, mask, is_causal, scale):
    from ..nn.functional_attention import _math_attention
    return _math_attention(q, k, v, mask, 0.0, is_causal, scale)


class FlashAttentionCpu(Op):
    """out = softmax(query @ key^T * scale + attn_mask) @ value, fused (4-D, no dropout)"""
    grad_fn_name = "ScaledDotProductFlashAttentionForCpuBackward0"
    name, n_inputs = "_scaled_dot_product_flash_attention_for_cpu", 3
    saves = ("attn_mask", "dropout_p", "is_causal", "key", "query", "scale", "value")
    rule = "the attention run again step by step, and differentiated"
    derivative_orders = 1

    @classmethod
    def apply(cls, query, key, value, attn_mask=None, is_causal=False, scale=None):
        if _tangents and has_tangent((query, key, value)):
            # forward mode: the math path's ops carry the tangents
            return _math(query, key, value, attn_mask, is_causal, scale)
        with inside_kernel(), no_grad():
            out = _math(query, key, value, attn_mask, is_causal, scale)
        result = new_tensor(out._data)
        inputs = (query, key, value)
        node = None
        if _grad_state.enabled and any(t._rg for t in inputs):
            node = cls._make_node(inputs, result, (query, key, value, attn_mask, 0.0,
                                                   is_causal, scale), None)
        report(cls.name, inputs, (result,), node)
        return result

    forward = staticmethod(lambda query, key, value, attn_mask, dropout_p, is_causal,
                           scale: None)

    def backward(ctx, grad):
        leaves = [t.detach().requires_grad_(need)
                  for t, need in zip((ctx.query, ctx.key, ctx.value), ctx.needs_input_grad)]
        wanted = [t for t in leaves if t.requires_grad]
        with inside_kernel():
            with enable_grad():
                out = _math(*leaves, ctx.attn_mask, ctx.is_causal, ctx.scale)
            found = iter(_grad([out], wanted, [grad], allow_unused=True))
        return tuple(next(found) if t.requires_grad else None for t in leaves)

    @classmethod
    def sample_inputs(cls, make, shape):
        yield make((1, 2, 3, 2)), make((1, 2, 3, 2)), make((1, 2, 3, 2))


def baddbmm(input: Tensor, batch1: Tensor, batch2: Tensor, *, beta=1, alpha=1) -> Tensor:
    """beta * input + alpha * (batch1 @ batch2) for 3-D batches (`torch.baddbmm`)."""
    for name, t in (("batch1", batch1), ("batch2", batch2)):
        if t.ndim != 3:
            raise RuntimeError(f"{name} must be a 3D tensor")
    return Baddbmm.apply(input, batch1, batch2, beta, alpha)


__all__ = ["SafeSoftmax", "Baddbmm", "FlashAttentionCpu", "baddbmm"]
