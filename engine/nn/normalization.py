"""`nn.LayerNorm`, `nn.BatchNorm1d` and `nn.BatchNorm2d`: normalisation layers with a
learnable scale and shift.

PyTorch counterparts: `torch.nn.LayerNorm` (statistics over the trailing dims of each sample)
and `torch.nn.BatchNorm1d`/`BatchNorm2d` (statistics of each channel over the batch, and the
length or height and width, while training, kept as running averages in buffers for eval).
The batch norms share `_BatchNorm`, as PyTorch's `_BatchNorm`; they differ only in the input
ranks they accept. Weights start at 1, biases at 0.
"""
from __future__ import annotations

from ..factories import ones, tensor, zeros
from ..tensor import Tensor
from . import functional as F
from .module import Module
from .parameter import Parameter


class LayerNorm(Module):
    """y = (x - mean) / sqrt(var + eps) * weight + bias over the last len(normalized_shape) dims.

    Example:
        >>> import gradstep.engine as torch
        >>> torch.nn.LayerNorm(4)
        LayerNorm((4,), eps=1e-05, elementwise_affine=True, bias=True)
    """

    def __init__(self, normalized_shape, eps: float = 1e-5, elementwise_affine: bool = True,
                 bias: bool = True, device=None, dtype=None) -> None:
        super().__init__()
        if isinstance(normalized_shape, int):
            normalized_shape = (normalized_shape,)
        self.normalized_shape = tuple(normalized_shape)
        self.eps = eps
        self.elementwise_affine = elementwise_affine
        if elementwise_affine:
            self.weight = Parameter(ones(*self.normalized_shape, dtype=dtype))
            if bias:
                self.bias = Parameter(zeros(*self.normalized_shape, dtype=dtype))
            else:
                self.register_parameter("bias", None)
        else:
            self.register_parameter("weight", None)
            self.register_parameter("bias", None)

    def forward(self, input: Tensor) -> Tensor:
        return F.layer_norm(input, self.normalized_shape, self.weight, self.bias, self.eps)

    def extra_repr(self) -> str:
        return (f"{self.normalized_shape}, eps={self.eps}, "
                f"elementwise_affine={self.elementwise_affine}, bias={self.bias is not None}")


class _BatchNorm(Module):
    """Per-channel (dim 1) normalisation; a subclass says which input ranks it takes.

    While training it uses the batch's statistics and updates `running_mean`,
    `running_var` (unbiased) and `num_batches_tracked`; in eval it uses the running ones.
    momentum=None averages all batches seen so far.
    """

    def __init__(self, num_features: int, eps: float = 1e-5, momentum: float | None = 0.1,
                 affine: bool = True, track_running_stats: bool = True, device=None,
                 dtype=None, bias: bool = True) -> None:
        super().__init__()
        self.num_features = num_features
        self.eps = eps
        self.momentum = momentum
        self.affine = affine
        self.track_running_stats = track_running_stats
        if affine:
            self.weight = Parameter(ones(num_features, dtype=dtype))
            if bias:
                self.bias = Parameter(zeros(num_features, dtype=dtype))
            else:
                self.register_parameter("bias", None)
        else:
            self.register_parameter("weight", None)
            self.register_parameter("bias", None)
        if track_running_stats:
            self.register_buffer("running_mean", zeros(num_features, dtype=dtype))
            self.register_buffer("running_var", ones(num_features, dtype=dtype))
            self.register_buffer("num_batches_tracked", tensor(0))
        else:
            self.register_buffer("running_mean", None)
            self.register_buffer("running_var", None)
            self.register_buffer("num_batches_tracked", None)

    _version = 2      # num_batches_tracked appeared in version 2

    def _upgrade_state_dict(self, state_dict, prefix: str, version) -> None:
        # A checkpoint without a recorded version may predate num_batches_tracked: PyTorch
        # keeps the current count rather than report the key missing.
        key = prefix + "num_batches_tracked"
        if (version is None or version < 2) and self.track_running_stats \
                and key not in state_dict:
            state_dict[key] = self.num_batches_tracked

    def reset_running_stats(self) -> None:
        if self.track_running_stats:
            self.running_mean.zero_()
            self.running_var.fill_(1)
            self.num_batches_tracked.zero_()

    def _check_input_dim(self, input: Tensor) -> None:  # pragma: no cover - subclasses
        raise NotImplementedError

    def forward(self, input: Tensor) -> Tensor:
        self._check_input_dim(input)
        factor = 0.0 if self.momentum is None else self.momentum
        if self.training and self.track_running_stats and self.num_batches_tracked is not None:
            self.num_batches_tracked.add_(1)
            if self.momentum is None:       # a cumulative moving average
                factor = 1.0 / float(self.num_batches_tracked)
        bn_training = self.training or (self.running_mean is None and self.running_var is None)
        keep = not self.training or self.track_running_stats
        return F.batch_norm(input, self.running_mean if keep else None,
                            self.running_var if keep else None, self.weight, self.bias,
                            bn_training, factor, self.eps)

    def extra_repr(self) -> str:
        return (f"{self.num_features}, eps={self.eps}, momentum={self.momentum}, "
                f"affine={self.affine}, bias={self.bias is not None}, "
                f"track_running_stats={self.track_running_stats}")


class BatchNorm1d(_BatchNorm):
    """Per-channel normalisation of (N, C) or (N, C, L) inputs (see `_BatchNorm`).

    Example:
        >>> import gradstep.engine as torch
        >>> torch.nn.BatchNorm1d(3)
        BatchNorm1d(3, eps=1e-05, momentum=0.1, affine=True, bias=True, track_running_stats=True)
    """

    def _check_input_dim(self, input: Tensor) -> None:
        if input.dim() != 2 and input.dim() != 3:
            raise ValueError(f"expected 2D or 3D input (got {input.dim()}D input)")


class BatchNorm2d(_BatchNorm):
    """Per-channel normalisation of (N, C, H, W) inputs, statistics over N, H and W (see
    `_BatchNorm`).

    Example:
        >>> import gradstep.engine as torch
        >>> torch.nn.BatchNorm2d(3)
        BatchNorm2d(3, eps=1e-05, momentum=0.1, affine=True, bias=True, track_running_stats=True)
    """

    def _check_input_dim(self, input: Tensor) -> None:
        if input.dim() != 4:
            raise ValueError(f"expected 4D input (got {input.dim()}D input)")


__all__ = ["LayerNorm", "BatchNorm1d", "BatchNorm2d"]
