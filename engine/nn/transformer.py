"""`nn.Transformer` and its parts: encoder layers (self-attention, then a feed-forward block)
and decoder layers (self-attention, attention over the encoder's output, feed-forward), each
block with a residual connection and a LayerNorm, and the stacks of them.

PyTorch counterparts of the same names (torch/nn/modules/transformer.py), computed the way
PyTorch's general path computes them (its fused inference kernel gives the same values up to
the last bits). Submodules are made in PyTorch's order, so seeded weights match. A stack given
the square causal mask (`Transformer.generate_square_subsequent_mask`) recognises it, as
PyTorch does, and tells its layers the attention is causal.
"""
from __future__ import annotations

import copy

from .. import messages
from ..factories import full
from ..ops.triangular import triu
from ..tensor import Tensor
from . import functional as F
from . import init
from .activation import GELU, Dropout, ReLU
from .attention import MultiheadAttention
from .container import ModuleList
from .functional_attention import _canonical_mask
from .linear import Linear
from .module import Module
from .normalization import LayerNorm


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
        # as PyTorch, both masks become additive floats here (warning if their dtypes differ)
        src_key_padding_mask = _canonical_mask(src_key_padding_mask, "src_key_padding_mask",
                                               src.dtype, src_mask, "src_mask")
        src_mask = _canonical_mask(src_mask, "src_mask", src.dtype)
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
        src_key_padding_mask = _canonical_mask(src_key_padding_mask, "src_key_padding_mask",
                                               src.dtype, mask, "mask")
        mask = _canonical_mask(mask, "mask", src.dtype)
        is_causal = _detect_is_causal_mask(
            mask, is_causal, _seq_len(src, self.layers[0].self_attn.batch_first))
        out = src
        for mod in self.layers:
            out = mod(out, src_mask=mask, is_causal=is_causal,
                      src_key_padding_mask=src_key_padding_mask)
        return self.norm(out) if self.norm is not None else out


class TransformerDecoderLayer(Module):
    """x + self-attention, then x + attention over `memory` (the encoder's output), then x +
    feed-forward, each normalised (or each norm first)."""

    def __init__(self, d_model: int, nhead: int, dim_feedforward: int = 2048,
                 dropout: float = 0.1, activation="relu", layer_norm_eps: float = 1e-5,
                 batch_first: bool = False, norm_first: bool = False, bias: bool = True,
                 device=None, dtype=None) -> None:
        super().__init__()
        self.self_attn = MultiheadAttention(d_model, nhead, dropout=dropout,
                                            batch_first=batch_first, bias=bias, dtype=dtype)
        self.multihead_attn = MultiheadAttention(d_model, nhead, dropout=dropout,
                                                 batch_first=batch_first, bias=bias,
                                                 dtype=dtype)
        self.linear1 = Linear(d_model, dim_feedforward, bias=bias, dtype=dtype)
        self.dropout = Dropout(dropout)
        self.linear2 = Linear(dim_feedforward, d_model, bias=bias, dtype=dtype)
        self.norm_first = norm_first
        self.norm1 = LayerNorm(d_model, eps=layer_norm_eps, bias=bias, dtype=dtype)
        self.norm2 = LayerNorm(d_model, eps=layer_norm_eps, bias=bias, dtype=dtype)
        self.norm3 = LayerNorm(d_model, eps=layer_norm_eps, bias=bias, dtype=dtype)
        self.dropout1 = Dropout(dropout)
        self.dropout2 = Dropout(dropout)
        self.dropout3 = Dropout(dropout)
        self.activation = _activation(activation) if isinstance(activation, str) else activation

    def forward(self, tgt: Tensor, memory: Tensor, tgt_mask=None, memory_mask=None,
                tgt_key_padding_mask=None, memory_key_padding_mask=None,
                tgt_is_causal: bool = False, memory_is_causal: bool = False) -> Tensor:
        x = tgt
        if self.norm_first:
            x = x + self._sa_block(self.norm1(x), tgt_mask, tgt_key_padding_mask, tgt_is_causal)
            x = x + self._mha_block(self.norm2(x), memory, memory_mask, memory_key_padding_mask,
                                    memory_is_causal)
            return x + self._ff_block(self.norm3(x))
        x = self.norm1(x + self._sa_block(x, tgt_mask, tgt_key_padding_mask, tgt_is_causal))
        x = self.norm2(x + self._mha_block(x, memory, memory_mask, memory_key_padding_mask,
                                           memory_is_causal))
        return self.norm3(x + self._ff_block(x))

    def _sa_block(self, x, attn_mask, key_padding_mask, is_causal) -> Tensor:
        x = self.self_attn(x, x, x, attn_mask=attn_mask, key_padding_mask=key_padding_mask,
                           is_causal=is_causal, need_weights=False)[0]
        return self.dropout1(x)

    def _mha_block(self, x, mem, attn_mask, key_padding_mask, is_causal) -> Tensor:
        x = self.multihead_attn(x, mem, mem, attn_mask=attn_mask,
                                key_padding_mask=key_padding_mask, is_causal=is_causal,
                                need_weights=False)[0]
        return self.dropout2(x)

    def _ff_block(self, x) -> Tensor:
        x = self.linear2(self.dropout(self.activation(self.linear1(x))))
        return self.dropout3(x)


class TransformerDecoder(Module):
    """num_layers copies of a decoder layer, each attending to the same `memory`, applied in
    turn (then `norm`, if given)."""

    def __init__(self, decoder_layer: TransformerDecoderLayer, num_layers: int,
                 norm=None) -> None:
        super().__init__()
        self.layers = ModuleList([copy.deepcopy(decoder_layer) for _ in range(num_layers)])
        self.num_layers = num_layers
        self.norm = norm

    def forward(self, tgt: Tensor, memory: Tensor, tgt_mask=None, memory_mask=None,
                tgt_key_padding_mask=None, memory_key_padding_mask=None, tgt_is_causal=None,
                memory_is_causal: bool = False) -> Tensor:
        seq_len = _seq_len(tgt, self.layers[0].self_attn.batch_first)
        tgt_is_causal = _detect_is_causal_mask(tgt_mask, tgt_is_causal, seq_len)
        output = tgt
        for mod in self.layers:
            output = mod(output, memory, tgt_mask=tgt_mask, memory_mask=memory_mask,
                         tgt_key_padding_mask=tgt_key_padding_mask,
                         memory_key_padding_mask=memory_key_padding_mask,
                         tgt_is_causal=tgt_is_causal, memory_is_causal=memory_is_causal)
        return self.norm(output) if self.norm is not None else output


class Transformer(Module):
    """An encoder stack over `src` and a decoder stack over `tgt` that attends to the
    encoder's output; every weight matrix starts Xavier-uniform, as PyTorch's does."""

    def __init__(self, d_model: int = 512, nhead: int = 8, num_encoder_layers: int = 6,
                 num_decoder_layers: int = 6, dim_feedforward: int = 2048,
                 dropout: float = 0.1, activation="relu", custom_encoder=None,
                 custom_decoder=None, layer_norm_eps: float = 1e-5, batch_first: bool = False,
                 norm_first: bool = False, bias: bool = True, device=None, dtype=None) -> None:
        super().__init__()

        def stack(custom, layer_cls, stack_cls, n: int):
            # the layer, then the final norm, then the copies: PyTorch's order, so that
            # seeded initialisation draws the same numbers
            if custom is not None:
                return custom
            layer = layer_cls(d_model, nhead, dim_feedforward, dropout, activation,
                              layer_norm_eps, batch_first, norm_first, bias, dtype=dtype)
            norm = LayerNorm(d_model, eps=layer_norm_eps, bias=bias, dtype=dtype)
            return stack_cls(layer, n, norm)

        self.encoder = stack(custom_encoder, TransformerEncoderLayer, TransformerEncoder,
                             num_encoder_layers)
        self.decoder = stack(custom_decoder, TransformerDecoderLayer, TransformerDecoder,
                             num_decoder_layers)
        for p in self.parameters():
            if p.dim() > 1:
                init.xavier_uniform_(p)
        self.d_model = d_model
        self.nhead = nhead
        self.batch_first = batch_first

    def forward(self, src: Tensor, tgt: Tensor, src_mask=None, tgt_mask=None, memory_mask=None,
                src_key_padding_mask=None, tgt_key_padding_mask=None,
                memory_key_padding_mask=None, src_is_causal=None, tgt_is_causal=None,
                memory_is_causal: bool = False) -> Tensor:
        batched = src.dim() == 3
        if not self.batch_first and src.size(1) != tgt.size(1) and batched:
            raise RuntimeError("the batch number of src and tgt must be equal")
        if self.batch_first and src.size(0) != tgt.size(0) and batched:
            raise RuntimeError("the batch number of src and tgt must be equal")
        if src.size(-1) != self.d_model or tgt.size(-1) != self.d_model:
            raise RuntimeError("the feature number of src and tgt must be equal to d_model")
        memory = self.encoder(src, mask=src_mask, src_key_padding_mask=src_key_padding_mask,
                              is_causal=src_is_causal)
        return self.decoder(tgt, memory, tgt_mask=tgt_mask, memory_mask=memory_mask,
                            tgt_key_padding_mask=tgt_key_padding_mask,
                            memory_key_padding_mask=memory_key_padding_mask,
                            tgt_is_causal=tgt_is_causal, memory_is_causal=memory_is_causal)

    @staticmethod
    def generate_square_subsequent_mask(sz: int, device=None, dtype=None) -> Tensor:
        """The causal mask: -inf above the diagonal (a position cannot see later ones), 0
        elsewhere."""
        return _square_subsequent_mask(sz, dtype)


def _square_subsequent_mask(sz: int, dtype=None) -> Tensor:
    return triu(full((sz, sz), float("-inf"), dtype=dtype), diagonal=1)


def _seq_len(src: Tensor, batch_first: bool) -> int:
    """The sequence length of an input: (S, E) unbatched, else (B, S, E) or (S, B, E)."""
    size = src.size()
    return size[0] if len(size) == 2 else size[1 if batch_first else 0]


def _detect_is_causal_mask(mask, is_causal=None, size=None) -> bool:
    """is_causal as given; when it is not given, whether `mask` is the square causal mask
    (PyTorch then lets attention take its causal path)."""
    make_causal = is_causal is True
    if is_causal is None and mask is not None:
        causal = _square_subsequent_mask(size if size is not None else mask.size(-2),
                                         dtype=mask.dtype)
        make_causal = mask.size() == causal.size() and bool((mask == causal).all())
    return make_causal


__all__ = ["Transformer", "TransformerDecoder", "TransformerDecoderLayer", "TransformerEncoder",
           "TransformerEncoderLayer"]
