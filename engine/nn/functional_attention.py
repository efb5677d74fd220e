"""Attention: `F.scaled_dot_product_attention` and `F.multi_head_attention_forward`.

PyTorch counterparts of the same names (torch/nn/functional.py and ATen's
`_scaled_dot_product_attention_math`). Both are composites of engine ops recorded node for
node as PyTorch records them; 4-D attention without dropout is PyTorch's fused CPU kernel,
one node (`engine/ops/attention.py`).
"""
from __future__ import annotations

import math

from ..factories import ones, zeros, zeros_like
from ..ops.join import cat
from ..ops.arithmetic import MulScalar
from ..ops.attention import FlashAttentionCpu, SafeSoftmax, baddbmm
from ..ops.linalg import bmm, matmul
from ..tensor import Tensor
from . import functional as F
from .. import messages
from ..dtypes import bool as torch_bool, float32


def _bool_to_additive(mask: Tensor, dtype, masked_where: bool) -> Tensor:
    """A boolean mask as 0 where attention is allowed and -inf where it is not; SDPA masks
    out where the mask is False, MultiheadAttention where it is True."""
    out = zeros_like(mask, dtype=dtype)
    return out.masked_fill_(mask if masked_where else mask.logical_not(), float("-inf"))


def _math_attention(query, key, value, attn_mask, dropout_p, is_causal, scale) -> Tensor:
    """ATen's _scaled_dot_product_attention_math: q and k each scaled by sqrt(scale)."""
    negative = scale is not None and scale < 0
    s = 1.0 / math.sqrt(query.shape[-1]) if scale is None else abs(scale)
    factor = math.sqrt(s)
    q = MulScalar.apply(query, 0.0 - factor if negative else factor)
    if is_causal:
        if attn_mask is not None:
            raise RuntimeError("_scaled_dot_product_attention: Explicit attn_mask should not "
                               "be set when is_causal=True")
        causal = ones(query.shape[-2], key.shape[-2], dtype=_bool()).tril()
        attn_mask = _bool_to_additive(causal, query.dtype, False)
    attn = matmul(q, MulScalar.apply(key.transpose(-2, -1), factor))
    if attn_mask is not None:
        attn = attn + attn_mask
    attn = SafeSoftmax.apply(attn, attn.ndim - 1)
    if dropout_p > 0.0:
        attn = F.dropout(attn, dropout_p, True)
    return matmul(attn, value)


def _bool():
    return torch_bool


def scaled_dot_product_attention(query: Tensor, key: Tensor, value: Tensor, attn_mask=None,
                                 dropout_p: float = 0.0, is_causal: bool = False, scale=None,
                                 enable_gqa: bool = False) -> Tensor:
    """softmax(query @ key^T * scale + mask) @ value over the last two dims.

    A boolean `attn_mask` says where attention is allowed (True); a float one is added to the
    scores. `is_causal` lets position i attend to positions <= i only.

    Example:
        >>> import gradstep.engine as torch
        >>> q = torch.ones(1, 2, 2, requires_grad=True)
        >>> scaled_dot_product_attention(q, q, q).grad_fn.name()
        'UnsafeViewBackward0'
    """
    _check_sdpa_inputs(query, key, value, attn_mask)
    if attn_mask is not None and attn_mask.dtype == _bool():
        attn_mask = _bool_to_additive(attn_mask, query.dtype, False)
    if query.ndim == 4 and key.ndim == 4 and value.ndim == 4 and dropout_p == 0.0:
        return FlashAttentionCpu.apply(query, key, value, attn_mask, is_causal, scale)
    return _math_attention(query, key, value, attn_mask, dropout_p, is_causal, scale)


def _check_sdpa_inputs(query: Tensor, key: Tensor, value: Tensor, attn_mask) -> None:
    """ATen's validate_sdpa_input, which names dtypes as C++ types ("c10::Half")."""
    def cpp(t):
        return messages.cpp_type(t.dtype.legacy[:-6])
    if not query.dtype == key.dtype == value.dtype:
        raise RuntimeError(f"Expected query, key, and value to have the same dtype, but got "
                           f"query.dtype: {cpp(query)} key.dtype: {cpp(key)} and value.dtype: "
                           f"{cpp(value)} instead.")
    if min(query.ndim, key.ndim, value.ndim) < 2:
        raise RuntimeError(f"Expected query, key, and value to all be  at least 2 dimensional, "
                           f"but got query.dim: {query.ndim} key.dim: {key.ndim} and "
                           f"value.dim: {value.ndim} instead.")
    if attn_mask is not None and attn_mask.dtype not in (_bool(), float32, query.dtype):
        raise RuntimeError(f"Expected attn_mask dtype to be bool or float or to match query "
                           f"dtype, but got attn_mask.dtype: {cpp(attn_mask)} and  query.dtype: "
                           f"{cpp(query)} instead.")


def _canonical_mask(mask, name: str, dtype, other=None, other_name: str = ""):
    """A mask as additive floats; PyTorch warns when the other mask is of another dtype."""
    if mask is None:
        return None
    if mask.dtype != _bool() and not mask.is_floating_point():
        raise AssertionError(f"only bool and floating types of {name} are supported")
    if other is not None and mask.dtype != other.dtype:
        messages.warn(f"Support for mismatched {name} and {other_name} is deprecated. Use "
                      "same type for both instead.")
    if mask.dtype == _bool():
        return _bool_to_additive(mask, dtype, True)
    return mask


def _in_projection_packed(q, k, v, w, b) -> tuple:
    E = q.shape[-1]
    if k is v and q is k:       # self-attention: one linear, cut into three
        proj = F.linear(q, w, b)
        proj = proj.unflatten(-1, (3, E)).unsqueeze(0).transpose(0, -2).squeeze(-2).contiguous()
        return proj[0], proj[1], proj[2]
    if k is v:                  # encoder-decoder attention
        w_q, w_kv = w.split([E, E * 2])
        b_q, b_kv = (None, None) if b is None else b.split([E, E * 2])
        kv = F.linear(k, w_kv, b_kv)
        kv = kv.unflatten(-1, (2, E)).unsqueeze(0).transpose(0, -2).squeeze(-2).contiguous()
        return F.linear(q, w_q, b_q), kv[0], kv[1]
    w_q, w_k, w_v = w.chunk(3)
    b_q, b_k, b_v = (None, None, None) if b is None else b.chunk(3)
    return F.linear(q, w_q, b_q), F.linear(k, w_k, b_k), F.linear(v, w_v, b_v)


def _check_shapes(query, key, value, key_padding_mask, attn_mask, num_heads) -> bool:
    """PyTorch's _mha_shape_check: whether the query is batched, with its errors."""
    if query.dim() not in (2, 3):
        raise AssertionError(f"query should be unbatched 2D or batched 3D tensor but received "
                             f"{query.dim()}-D query tensor")
    batched = query.dim() == 3
    kind = "batched (3-D)" if batched else "unbatched (2-D)"
    rank = query.dim()
    if key.dim() != rank or value.dim() != rank:
        raise AssertionError(f"For {kind} `query`, expected `key` and `value` to be {rank}-D "
                             f"but found {key.dim()}-D and {value.dim()}-D tensors "
                             "respectively")
    if key_padding_mask is not None and key_padding_mask.dim() != rank - 1:
        raise AssertionError(f"For {kind} `query`, expected `key_padding_mask` to be `None` or "
                             f"{rank - 1}-D but found {key_padding_mask.dim()}-D tensor instead")
    if attn_mask is not None:
        if attn_mask.dim() not in (2, 3):
            raise AssertionError(f"For {kind} `query`, expected `attn_mask` to be `None`, 2-D "
                                 f"or 3-D but found {attn_mask.dim()}-D tensor instead")
        expected = (num_heads, query.shape[0], key.shape[0])
        if not batched and attn_mask.dim() == 3 and tuple(attn_mask.shape) != expected:
            raise AssertionError(f"Expected `attn_mask` shape to be {expected} but got "
                                 f"{attn_mask.shape}")
    return batched


def multi_head_attention_forward(query, key, value, embed_dim_to_check, num_heads,
                                 in_proj_weight, in_proj_bias, bias_k, bias_v, add_zero_attn,
                                 dropout_p, out_proj_weight, out_proj_bias, training=True,
                                 key_padding_mask=None, need_weights=True, attn_mask=None,
                                 use_separate_proj_weight=False, q_proj_weight=None,
                                 k_proj_weight=None, v_proj_weight=None, static_k=None,
                                 static_v=None, average_attn_weights=True,
                                 is_causal=False) -> tuple:
    """(output, weights) of multi-head attention over (L, N, E) inputs, as PyTorch computes
    them: with need_weights, explicit scores and softmax (weights averaged over the heads
    unless told not to); without, scaled_dot_product_attention."""
    batched = _check_shapes(query, key, value, key_padding_mask, attn_mask, num_heads)
    if not batched:
        query, key, value = query.unsqueeze(1), key.unsqueeze(1), value.unsqueeze(1)
        if key_padding_mask is not None:
            key_padding_mask = key_padding_mask.unsqueeze(0)
    tgt_len, bsz, embed_dim = query.shape
    src_len = key.shape[0]
    if embed_dim != embed_dim_to_check:
        raise AssertionError(f"was expecting embedding dimension of {embed_dim_to_check}, but "
                             f"got {embed_dim}")
    key_padding_mask = _canonical_mask(key_padding_mask, "key_padding_mask", query.dtype,
                                       attn_mask, "attn_mask")
    if is_causal and attn_mask is None:
        raise RuntimeError("Need attn_mask if specifying the is_causal hint. You may use the "
                           "Transformer module method `generate_square_subsequent_mask` to "
                           "create this mask.")
    if is_causal and key_padding_mask is None and not need_weights:
        attn_mask = None
    else:
        attn_mask = _canonical_mask(attn_mask, "attn_mask", query.dtype)
        if key_padding_mask is not None:
            is_causal = False
    head_dim = embed_dim // num_heads
    if static_k is not None or static_v is not None:
        raise NotImplementedError("gradstep's multi_head_attention_forward takes no static_k "
                                  "or static_v")
    if use_separate_proj_weight:
        q, k, v = _separate_projections(query, key, value, q_proj_weight, k_proj_weight,
                                        v_proj_weight, in_proj_bias)
    else:
        if tuple(key.shape) != tuple(value.shape):
            raise AssertionError(f"key shape {key.shape} does not match value shape "
                                 f"{value.shape}")
        q, k, v = _in_projection_packed(query, key, value, in_proj_weight, in_proj_bias)
    attn_mask = _checked_attn_mask(attn_mask, (bsz * num_heads, tgt_len, src_len))
    if bias_k is not None and bias_v is not None:
        k = cat([k, bias_k.repeat(1, bsz, 1)])
        v = cat([v, bias_v.repeat(1, bsz, 1)])
        attn_mask, key_padding_mask = _pad_masks(attn_mask, key_padding_mask)
    elif bias_k is not None or bias_v is not None:
        raise AssertionError("bias_k is set but bias_v is None" if bias_k is not None
                             else "bias_v is set but bias_k is None")
    q = q.view(tgt_len, bsz * num_heads, head_dim).transpose(0, 1)
    k = k.view(k.shape[0], bsz * num_heads, head_dim).transpose(0, 1)
    v = v.view(v.shape[0], bsz * num_heads, head_dim).transpose(0, 1)
    if add_zero_attn:
        k = cat([k, zeros((bsz * num_heads, 1, head_dim), dtype=k.dtype)], dim=1)
        v = cat([v, zeros((bsz * num_heads, 1, head_dim), dtype=v.dtype)], dim=1)
        attn_mask, key_padding_mask = _pad_masks(attn_mask, key_padding_mask)
    src_len = k.shape[1]
    if key_padding_mask is not None:
        if key_padding_mask.shape[0] != bsz:
            raise AssertionError(f"Expected key_padded_mask.shape[0] to be {bsz}, but got "
                                 f"{key_padding_mask.shape[0]}")
        if key_padding_mask.shape[1] != src_len:
            raise AssertionError(f"Expected key_padded_mask.shape[1] to be {src_len}, but got "
                                 f"{key_padding_mask.shape[1]}")
        key_padding_mask = key_padding_mask.view(bsz, 1, 1, src_len).expand(
            -1, num_heads, -1, -1).reshape(bsz * num_heads, 1, src_len)
        attn_mask = key_padding_mask if attn_mask is None else attn_mask + key_padding_mask
    if not training:
        dropout_p = 0.0
    shape = (tgt_len, bsz, embed_dim, num_heads, src_len)
    if need_weights:
        out, weights = _attend_with_weights(q, k, v, attn_mask, dropout_p, out_proj_weight,
                                            out_proj_bias, shape, average_attn_weights)
        return (out, weights) if batched else (out.squeeze(1), weights.squeeze(0))
    out = _attend_fused(q, k, v, attn_mask, dropout_p, is_causal, out_proj_weight,
                        out_proj_bias, shape)
    return (out if batched else out.squeeze(1)), None


def _separate_projections(query, key, value, w_q, w_k, w_v, bias) -> tuple:
    """PyTorch's _in_projection: one weight each, for keys and values of their own widths."""
    if tuple(key.shape[:2]) != tuple(value.shape[:2]):
        raise AssertionError(f"key's sequence and batch dims {key.shape[:2]} do not match "
                             f"value's {value.shape[:2]}")
    b_q, b_k, b_v = (None, None, None) if bias is None else bias.chunk(3)
    e_q, e_k, e_v = query.shape[-1], key.shape[-1], value.shape[-1]
    for what, w, want in (("query", w_q, (e_q, e_q)), ("key", w_k, (e_q, e_k)),
                          ("value", w_v, (e_q, e_v))):
        if tuple(w.shape) != want:
            raise AssertionError(f"expecting {what} weights shape of {want}, but got "
                                 f"{w.shape}")
    for what, b in (("query", b_q), ("key", b_k), ("value", b_v)):
        if b is not None and tuple(b.shape) != (e_q,):
            raise AssertionError(f"expecting {what} bias shape of {(e_q,)}, but got {b.shape}")
    return F.linear(query, w_q, b_q), F.linear(key, w_k, b_k), F.linear(value, w_v, b_v)


def _checked_attn_mask(attn_mask, size: tuple):
    """A 2-D mask made 3-D; a 3-D one checked against (N * heads, L, S)."""
    if attn_mask is None:
        return None
    if attn_mask.dim() == 2:
        if tuple(attn_mask.shape) != size[1:]:
            raise RuntimeError(f"The shape of the 2D attn_mask is {attn_mask.shape}, but should "
                               f"be {size[1:]}.")
        return attn_mask.unsqueeze(0)
    if attn_mask.dim() == 3:
        if tuple(attn_mask.shape) != size:
            raise RuntimeError(f"The shape of the 3D attn_mask is {attn_mask.shape}, but should "
                               f"be {size}.")
        return attn_mask
    raise RuntimeError(f"attn_mask's dimension {attn_mask.dim()} is not supported")


def _pad_masks(attn_mask, key_padding_mask) -> tuple:
    """Both masks widened by one key (an added bias key, or the zero key) that is not masked."""
    return (None if attn_mask is None else F.pad(attn_mask, (0, 1)),
            None if key_padding_mask is None else F.pad(key_padding_mask, (0, 1)))


def _attend_with_weights(q, k, v, attn_mask, dropout_p, out_w, out_b, shape, average):
    """The need_weights path: scores, softmax and the weighted values in plain ops."""
    tgt_len, bsz, embed_dim, num_heads, src_len = shape
    q_scaled = q * math.sqrt(1.0 / float(q.shape[-1]))
    if attn_mask is not None:
        weights = baddbmm(attn_mask, q_scaled, k.transpose(-2, -1))
    else:
        weights = bmm(q_scaled, k.transpose(-2, -1))
    weights = F.softmax(weights, dim=-1)
    if dropout_p > 0.0:
        weights = F.dropout(weights, p=dropout_p)
    out = bmm(weights, v)
    out = out.transpose(0, 1).reshape(tgt_len * bsz, embed_dim)
    out = F.linear(out, out_w, out_b)
    out = out.view(tgt_len, bsz, out.shape[1])
    weights = weights.view(bsz, num_heads, tgt_len, src_len)
    return out, (weights.mean(dim=1) if average else weights)


def _attend_fused(q, k, v, attn_mask, dropout_p, is_causal, out_w, out_b, shape):
    """The path without weights: scaled_dot_product_attention on (N, heads, L, E/heads)."""
    tgt_len, bsz, embed_dim, num_heads, src_len = shape
    head_dim = embed_dim // num_heads
    if attn_mask is not None:
        if attn_mask.shape[0] == 1 and attn_mask.dim() == 3:
            attn_mask = attn_mask.unsqueeze(0)
        else:
            attn_mask = attn_mask.view(bsz, num_heads, -1, src_len)
    q = q.view(bsz, num_heads, tgt_len, head_dim)
    k = k.view(bsz, num_heads, src_len, head_dim)
    v = v.view(bsz, num_heads, src_len, head_dim)
    out = scaled_dot_product_attention(q, k, v, attn_mask, dropout_p, is_causal)
    out = out.permute(2, 0, 1, 3).reshape(bsz * tgt_len, embed_dim)
    out = F.linear(out, out_w, out_b)
    return out.view(tgt_len, bsz, out.shape[1])


__all__ = ["scaled_dot_product_attention", "multi_head_attention_forward"]
