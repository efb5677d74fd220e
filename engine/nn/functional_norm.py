"""`F.layer_norm` and `F.batch_norm`: PyTorch's argument checks, then one node each.

PyTorch counterparts: `torch.nn.functional.layer_norm` (`NativeLayerNormBackward0`) and
`torch.nn.functional.batch_norm` (`NativeBatchNormBackward0`). The arithmetic is in
`engine.ops.normalization`. Re-exported by `engine.nn.functional`.
"""
from __future__ import annotations

import numpy as np

from ..ops import normalization as _norm
from ..tensor import Tensor, new_tensor


def _filled(value: float, shape: tuple, like: Tensor) -> Tensor:
    """A weight or bias stand-in that requires no grad (so its edge is None, as PyTorch's)."""
    dt = like._data.dtype if like._data.dtype.kind == "f" else np.float32
    return new_tensor(np.full(shape, value, dt))


def layer_norm(input: Tensor, normalized_shape, weight: Tensor | None = None,
               bias: Tensor | None = None, eps: float = 1e-5) -> Tensor:
    """Normalise over the trailing `normalized_shape` dims to mean 0 and variance 1, then
    scale by `weight` and shift by `bias` (`NativeLayerNormBackward0`).

    Example:
        >>> import gradstep.engine as torch
        >>> y = layer_norm(torch.tensor([[1.0, 3.0]]), (2,))
        >>> [round(v, 4) for v in y[0].tolist()], type(y.grad_fn).__name__
        ([-1.0, 1.0], 'NativeLayerNormBackward0')
    """
    shape = (normalized_shape,) if isinstance(normalized_shape, int) else tuple(normalized_shape)
    k = len(shape)
    if tuple(input.shape[input.ndim - k:]) != shape or input.ndim < k:
        raise RuntimeError(f"Given normalized_shape={list(shape)}, expected input with shape "
                           f"[*, {', '.join(str(s) for s in shape)}], but got input of size"
                           f"{list(input.shape)}")
    for t, what in ((weight, "weight"), (bias, "bias")):
        if t is not None and tuple(t.shape) != shape:
            raise RuntimeError(f"Expected {what} to be of same shape as normalized_shape, but "
                               f"got {what} of shape {list(t.shape)} and normalized_shape = "
                               f"{list(shape)}")
    w = weight if weight is not None else _filled(1.0, shape, input)
    b = bias if bias is not None else _filled(0.0, shape, input)
    return _norm.NativeLayerNorm.apply(input, w, b, shape, float(eps))


def batch_norm(input: Tensor, running_mean: Tensor | None, running_var: Tensor | None,
               weight: Tensor | None = None, bias: Tensor | None = None,
               training: bool = False, momentum: float = 0.1, eps: float = 1e-5) -> Tensor:
    """Normalise each channel (dim 1) by the batch's mean and variance while training,
    updating `running_mean`/`running_var` in place, or by the running ones otherwise
    (`NativeBatchNormBackward0`).

    Example:
        >>> import gradstep.engine as torch
        >>> y = batch_norm(torch.tensor([[1.0], [3.0]]), None, None, training=True)
        >>> [round(v, 4) for v in y.flatten().tolist()], type(y.grad_fn).__name__
        ([-1.0, 1.0], 'NativeBatchNormBackward0')
    """
    size = input.shape
    if training:
        prod = size[0] * int(np.prod(size[2:]))
        if prod == 1:
            raise ValueError("Expected more than 1 value per channel when training, got input "
                             f"size {size!r}")
    c = size[1] if input.ndim > 1 else 1
    for t, what in ((running_mean, "running_mean"), (running_var, "running_var"),
                    (weight, "weight"), (bias, "bias")):
        if t is not None and t.numel() != c:
            raise RuntimeError(f"{what} should contain {c} elements not {t.numel()}")
    if not training and (running_mean is None or running_var is None):
        raise RuntimeError("running_mean must be defined in evaluation mode")
    w = weight if weight is not None else _filled(1.0, (c,), input)
    b = bias if bias is not None else _filled(0.0, (c,), input)
    return _norm.NativeBatchNorm.apply(input, w, b, running_mean, running_var, bool(training),
                                       momentum, float(eps))


__all__ = ["layer_norm", "batch_norm"]
