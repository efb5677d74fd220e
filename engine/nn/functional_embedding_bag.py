"""`F.embedding_bag`: the rows of a table picked by each bag of indices, reduced per bag.

PyTorch counterpart: `torch.nn.functional.embedding_bag` (one `EmbeddingBagBackward0` node).
A 1-D input is cut into bags at `offsets`; a 2-D input is a batch of equal bags. The argument
checks and their messages are PyTorch's; the op is `engine.ops.embedding_bag.EmbeddingBag`.
"""
from __future__ import annotations

import numpy as np

from .. import messages
from ..dtypes import float32, int64
from ..factories import arange, zeros
from ..grad_mode import no_grad
from ..ops import embedding_bag as _bag
from ..tensor import Tensor
from .functional_sparse import _renorm_

_MODES = {"sum": _bag.SUM, "mean": _bag.MEAN, "max": _bag.MAX}


def embedding_bag(input: Tensor, weight: Tensor, offsets=None, max_norm=None,
                  norm_type: float = 2, scale_grad_by_freq: bool = False, mode: str = "mean",
                  sparse: bool = False, per_sample_weights=None,
                  include_last_offset: bool = False, padding_idx=None) -> Tensor:
    """One row per bag: the sum, mean or max of the weight rows its indices pick.

    Example:
        >>> import gradstep.engine as torch
        >>> w = torch.tensor([[1.0, 2.0], [3.0, 4.0], [5.0, 6.0]], requires_grad=True)
        >>> out = embedding_bag(torch.tensor([0, 1, 2]), w, torch.tensor([0, 2]), mode="sum")
        >>> out.tolist(), type(out.grad_fn).__name__
        ([[4.0, 6.0], [5.0, 6.0]], 'EmbeddingBagBackward0')
    """
    if weight.dtype == int64 and input.is_floating_point():
        messages.warn("Argument order of nn.functional.embedding_bag was changed. Usage "
                      "`embedding_bag(weight, input, ...)` is deprecated, and should now be "
                      "`embedding_bag(input, weight, ...)`.")
        weight, input = input, weight
    if per_sample_weights is not None and input.shape != per_sample_weights.shape:
        raise ValueError(f"embedding_bag: If per_sample_weights ({per_sample_weights.shape}) "
                         f"is not None, then it must have the same shape as the input "
                         f"({input.shape})")
    if weight.dim() != 2:
        raise ValueError(f"weight has to be a 2D Tensor, but got Tensor of dimension "
                         f"{weight.dim()}")
    input, offsets, per_sample_weights, include_last_offset = _flattened(
        input, offsets, per_sample_weights, include_last_offset)
    code = _mode(mode, scale_grad_by_freq, sparse)
    if max_norm is not None:
        with no_grad():
            _renorm_(weight, input._data, max_norm, norm_type)
    if per_sample_weights is not None and mode != "sum":
        raise NotImplementedError(f"embedding_bag: per_sample_weights was not None. "
                                  f"per_sample_weights is only supported for mode='sum' (got "
                                  f"mode='{mode}'). Please open a feature request on GitHub.")
    # PyTorch's fast kernel (float32 sums and means without padding_idx) words it otherwise
    fast = weight.dtype == float32 and code != _bag.MAX and padding_idx is None
    _check_indices(input, offsets, weight.shape[0], fast)
    n = weight.shape[0]
    pad = -1 if padding_idx is None else (padding_idx + n if padding_idx < 0 else padding_idx)
    psw = zeros(0, dtype=weight.dtype) if per_sample_weights is None else per_sample_weights
    return _bag.EmbeddingBag.apply(weight, psw, input, offsets, code, include_last_offset, pad)


def _flattened(input, offsets, per_sample_weights, include_last_offset) -> tuple:
    """A 2-D input as one run of indices with a bag every row; a 1-D one checked."""
    if input.dim() == 2:
        if offsets is not None:
            raise ValueError("if input is 2D, then offsets has to be None, as input is treated "
                             "is a mini-batch of fixed length sequences. However, found "
                             f"offsets of type {type(offsets)}")
        offsets = arange(0, input.numel(), input.shape[1], dtype=input.dtype)
        if per_sample_weights is not None:
            per_sample_weights = per_sample_weights.reshape(-1)
        return input.reshape(-1), offsets, per_sample_weights, False
    if input.dim() == 1:
        if offsets is None:
            raise ValueError("offsets has to be a 1D Tensor but got None")
        if offsets.dim() != 1:
            raise ValueError("offsets has to be a 1D Tensor")
        return input, offsets, per_sample_weights, include_last_offset
    raise ValueError(f"input has to be 1D or 2D Tensor, but got Tensor of dimension "
                     f"{input.dim()}")


def _mode(mode: str, scale_grad_by_freq: bool, sparse: bool) -> int:
    if mode == "max":
        if scale_grad_by_freq:
            raise ValueError("max mode does not support scaling the gradient by the frequency")
        if sparse:
            raise ValueError("max mode does not support sparse weights")
    elif mode not in _MODES:
        raise ValueError("mode has to be one of sum, mean or max")
    if sparse or scale_grad_by_freq:
        raise NotImplementedError("gradstep's embedding_bag supports neither sparse gradients "
                                  "nor scale_grad_by_freq")
    return _MODES[mode]


def _check_indices(input: Tensor, offsets: Tensor, n: int, fast: bool) -> None:
    """ATen's checks of the offsets and indices, in its words."""
    off = offsets._data
    if off.size and off[0] != 0:
        raise RuntimeError(f"offsets[0] has to be 0, i.e., the first sequence in the "
                           f"mini-batch has to start from position 0. However, got {off[0]}\n"
                           f"[ {offsets.type()}{{}} ]")
    idx = input._data.astype(np.int64, copy=False)
    bad = np.flatnonzero((idx < 0) | (idx >= n))
    if bad.size and fast:
        raise RuntimeError(f"Index {bad[0]} of input takes value {idx[bad[0]]} which is not in "
                           f"the valid range [0, {n})")
    if bad.size:
        raise RuntimeError(f"embedding_bag: Expected idx >= 0 && idx < num_embeddings but found "
                           f"idx to be {idx[bad[0]]}")


__all__ = ["embedding_bag"]
