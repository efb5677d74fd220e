"""`F.dropout1d`, `F.dropout2d` and `F.dropout3d`: channel-wise dropout.

PyTorch counterparts of the same names (ATen's `feature_dropout`): one keep-or-drop draw per
(sample, channel), `bernoulli_(1 - p)` on an (N, C, 1, ...) tensor from the global
generator, divided by 1 - p and multiplied in (`MulBackward0`), so seeded programs drop the
channels PyTorch drops.
"""
from __future__ import annotations

from .. import messages
from ..factories import default_generator, zeros
from ..tensor import Tensor, new_tensor

_DEPRECATED_RANK = ("dropout{n}d: Received a {rank}-D input to dropout{n}d, which is deprecated "
                    "and will result in an error in a future release. To retain the behavior "
                    "and silence this warning, please use dropout instead. Note that "
                    "dropout{n}d exists to provide channel-wise dropout on inputs with {n} "
                    "spatial dimensions, a channel dimension, and an optional batch dimension "
                    "(i.e. {n1}D or {n2}D inputs).")
_THREE_D_AS_1D = ("dropout2d: Received a 3D input to dropout2d and assuming that channel-wise "
                  "1D dropout behavior is desired - input is interpreted as shape (N, C, L), "
                  "where C is the channel dim. This behavior will change in a future release "
                  "to interpret the input as one without a batch dimension, i.e. shape "
                  "(C, H, W). To maintain the 1D channel-wise dropout behavior, please switch "
                  "to using dropout1d instead.")


def _check_p(p: float) -> None:
    if p < 0.0 or p > 1.0:
        raise ValueError(f"dropout probability has to be between 0 and 1, but got {p}")


def feature_dropout(input: Tensor, p: float, training: bool) -> Tensor:
    """Zero whole channels (dim 1) with probability p, scaling the rest by 1 / (1 - p)."""
    if p == 0.0 or not training or input.numel() == 0:
        return input
    if p == 1.0:
        return input * zeros((), dtype=input.dtype)
    if input.ndim < 2:
        raise RuntimeError("Feature dropout requires at least 2 dimensions in the input")
    shape = tuple(input.shape[:2]) + (1,) * (input.ndim - 2)
    keep = default_generator.bernoulli(shape[0] * shape[1], 1 - p).reshape(shape)
    return input * (new_tensor(keep.astype(input._data.dtype)) / (1 - p))


def _unbatched(input: Tensor, p: float, training: bool, batched: bool) -> Tensor:
    if batched:
        return feature_dropout(input, p, training)
    return feature_dropout(input.unsqueeze(0), p, training).squeeze(0)


def dropout1d(input: Tensor, p: float = 0.5, training: bool = True,
              inplace: bool = False) -> Tensor:
    """Channel-wise dropout of (N, C, L) or (C, L) inputs.

    Example:
        >>> import gradstep.engine as torch
        >>> dropout1d(torch.ones(2, 3), 0.5, training=False).shape
        torch.Size([2, 3])
    """
    _check_p(p)
    if input.dim() not in (2, 3):
        raise RuntimeError(f"dropout1d: Expected 2D or 3D input, but received a {input.dim()}D "
                           "input. Note that dropout1d exists to provide channel-wise dropout "
                           "on inputs with 1 spatial dimension, a channel dimension, and an "
                           "optional batch dimension (i.e. 2D or 3D inputs).")
    return _unbatched(input, p, training, input.dim() == 3)


def dropout2d(input: Tensor, p: float = 0.5, training: bool = True,
              inplace: bool = False) -> Tensor:
    """Channel-wise dropout of (N, C, H, W) inputs; a 3-D input is read as (N, C, L), with
    PyTorch's warning."""
    _check_p(p)
    if input.dim() not in (3, 4):
        messages.warn(_DEPRECATED_RANK.format(n=2, rank=input.dim(), n1=3, n2=4))
    if input.dim() == 3:
        messages.warn(_THREE_D_AS_1D)
    return feature_dropout(input, p, training)


def dropout3d(input: Tensor, p: float = 0.5, training: bool = True,
              inplace: bool = False) -> Tensor:
    """Channel-wise dropout of (N, C, D, H, W) or (C, D, H, W) inputs."""
    _check_p(p)
    if input.dim() not in (4, 5):
        messages.warn(_DEPRECATED_RANK.format(n=3, rank=input.dim(), n1=4, n2=5))
    return _unbatched(input, p, training, input.dim() == 5)


__all__ = ["dropout1d", "dropout2d", "dropout3d"]
