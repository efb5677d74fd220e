"""`nn.AdaptiveAvgPool1d/2d` and `nn.AdaptiveMaxPool1d/2d`: the adaptive pooling as layers.

PyTorch counterparts: the same names in `torch.nn`. They keep output_size as given (an int, a
tuple or list, None for "keep this dim") and print it that way.
"""
from __future__ import annotations

from . import functional as F
from .module import Module


class _AdaptivePool(Module):
    def __init__(self, output_size) -> None:
        super().__init__()
        self.output_size = output_size

    def extra_repr(self) -> str:
        return f"output_size={self.output_size}"


class _AdaptiveMaxPool(_AdaptivePool):
    def __init__(self, output_size, return_indices: bool = False) -> None:
        super().__init__(output_size)
        self.return_indices = return_indices


class AdaptiveAvgPool2d(_AdaptivePool):
    """Mean over output_size windows covering H and W (1 gives global average pooling).

    Example:
        >>> import gradstep.engine as torch
        >>> torch.nn.AdaptiveAvgPool2d((1, 1))
        AdaptiveAvgPool2d(output_size=(1, 1))
    """

    def forward(self, input):
        return F.adaptive_avg_pool2d(input, self.output_size)


class AdaptiveAvgPool1d(_AdaptivePool):
    """Mean over output_size windows covering the last dim."""

    def forward(self, input):
        return F.adaptive_avg_pool1d(input, self.output_size)


class AdaptiveMaxPool2d(_AdaptiveMaxPool):
    """Max over output_size windows covering H and W."""

    def forward(self, input):
        return F.adaptive_max_pool2d(input, self.output_size, self.return_indices)


class AdaptiveMaxPool1d(_AdaptiveMaxPool):
    """Max over output_size windows covering the last dim."""

    def forward(self, input):
        return F.adaptive_max_pool1d(input, self.output_size, self.return_indices)


__all__ = ["AdaptiveAvgPool1d", "AdaptiveAvgPool2d", "AdaptiveMaxPool1d", "AdaptiveMaxPool2d"]
