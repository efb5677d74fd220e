"""`nn.TransformerEncoderLayer` and `nn.TransformerEncoder`: self-attention and a feed-forward
block, each with a residual connection and a LayerNorm.

PyTorch counterparts of the same names (torch/nn/modules/transformer.py), computed the way
PyTorch's general path computes them (its fused inference kernel gives the same values up to
the last bits). Submodules are made in PyTorch's order, so seeded weights match.
"""
from __future__ import annotations

import copy

from .. import messages
from ..tensor import Tensor
from . import functional as F
from .activation import Dropout
from .attention import MultiheadAttention
from .container import ModuleList
from .linear import Linear
from .module import Module
from .normalization import LayerNorm
from .activation import GELU, ReLU


def _activation(name):
    if name == "relu":
        return F.relu
    if name == "gelu":
        return F.gelu
    raise RuntimeError(f"activation should be relu/gelu, not {name}")


class TransformerEncoderLayer(Module):
    """x + self-attention, normalised; then x + feed-forward, normalised (or norm first).

    Example:
        >>> import gradstep.engine as torch
        >>> layer = torch.nn.TransformerEncoderLayer(4, 2, dim_feedforward=8).eval()
        >>> layer(torch.ones(3, 1, 4)).shape
        torch.Size([3, 1, 4])
    """

    def __init__(self, d_model: int, nhead: int, dim_feedforward: int = 2048,
                 dropout: float = 0.1, activation="relu", layer_norm_eps: float = 1e-5,
                 batch_first: bool = False, norm_first: bool = False, bias: bool = True,
                 device=None, dtype=None) -> None:
        super().__init__()
        self.self_attn = MultiheadAttention(d_model, nhead, dropout=dropout, bias=bias,
                                            batch_first=batch_first, dtype=dtype)
        self.linear1 = Linear(d_model, dim_feedforward, bias=bias, dtype=dtype)
        self.dropout = Dropout(dropout)
        self.linear2 = Linear(dim_feedforward, d_model, bias=bias, dtype=dtype)
        self.norm_first = norm_first
        self.norm1 = LayerNorm(d_model, eps=layer_norm_eps, bias=bias, dtype=dtype)
        self.norm2 = LayerNorm(d_model, eps=layer_norm_eps, bias=bias, dtype=dtype)
        self.dropout1 = Dropout(dropout)
        self.dropout2 = Dropout(dropout)
        if isinstance(activation, str):
            activation = _activation(activation)
        self.activation_relu_or_gelu = (1 if activation is F.relu or isinstance(activation, ReLU)
                                        else 2 if activation is F.gelu
                                        or isinstance(activation, GELU) else 0)
        self.activation = activation

    def forward(self, src: Tensor, src_mask=None, src_key_padding_mask=None,
                is_causal: bool = False) -> Tensor:
        x = src
        if self.norm_first:
            x = x + self._sa_block(self.norm1(x), src_mask, src_key_padding_mask, is_causal)
            return x + self._ff_block(self.norm2(x))
        x = self.norm1(x + self._sa_block(x, src_mask, src_key_padding_mask, is_causal))
        return self.norm2(x + self._ff_block(x))

    def _sa_block(self, x, attn_mask, key_padding_mask, is_causal) -> Tensor:
        x = self.self_attn(x, x, x, attn_mask=attn_mask, key_padding_mask=key_padding_mask,
                           need_weights=False, is_causal=is_causal)[0]
        return self.dropout1(x)

    def _ff_block(self, x) -> Tensor:
        x = self.linear2(self.dropout(self.activation(self.linear1(x))))
        return self.dropout2(x)


def _why_not_fast(layer) -> str:
    """PyTorch's first reason an encoder cannot use its nested-tensor fast path, or ""."""
    if not isinstance(layer, TransformerEncoderLayer):
        return "encoder_layer was not TransformerEncoderLayer"
    attn = layer.self_attn
    reasons = ((layer.norm_first, "encoder_layer.norm_first was True"),
               (not attn.batch_first, "encoder_layer.self_attn.batch_first was not True(use "
                                      "batch_first for better inference performance)"),
               (attn.in_proj_bias is None, "encoder_layer.self_attn was passed bias=False"),
               (not layer.activation_relu_or_gelu,
                "encoder_layer.activation_relu_or_gelu was not True"),
               (layer.norm1.eps != layer.norm2.eps,
                "encoder_layer.norm1.eps was not equal to encoder_layer.norm2.eps"),
               (attn.num_heads % 2 == 1, "encoder_layer.self_attn.num_heads is odd"))
    return next((why for failed, why in reasons if failed), "")


class TransformerEncoder(Module):
    """num_layers copies of an encoder layer, applied in turn (then `norm`, if given)."""

    def __init__(self, encoder_layer: TransformerEncoderLayer, num_layers: int, norm=None,
                 enable_nested_tensor: bool = True, mask_check: bool = True) -> None:
        super().__init__()
        self.layers = ModuleList([copy.deepcopy(encoder_layer) for _ in range(num_layers)])
        self.num_layers = num_layers
        self.norm = norm
        self.enable_nested_tensor = enable_nested_tensor
        self.use_nested_tensor = enable_nested_tensor
        self.mask_check = mask_check
        why = _why_not_fast(encoder_layer)
        if enable_nested_tensor and why:
            messages.warn("enable_nested_tensor is True, but self.use_nested_tensor is False "
                          f"because {why}", UserWarning)
            self.use_nested_tensor = False

    def forward(self, src: Tensor, mask=None, src_key_padding_mask=None, is_causal=None):
        out = src
        for mod in self.layers:
            out = mod(out, src_mask=mask, is_causal=bool(is_causal),
                      src_key_padding_mask=src_key_padding_mask)
        return self.norm(out) if self.norm is not None else out


__all__ = ["TransformerEncoderLayer", "TransformerEncoder"]
