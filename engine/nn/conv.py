"""`nn.Conv1d` and `nn.Conv2d`: a learned weight (out, in/groups, *kernel) and bias.

PyTorch counterparts: `torch.nn.Conv1d`, `torch.nn.Conv2d`. Parameters are initialised as
PyTorch's `reset_parameters` does (kaiming-uniform with a = sqrt(5), the bias from
U(-1/sqrt(fan_in), 1/sqrt(fan_in))), so `torch.manual_seed` gives PyTorch's numbers; the repr
lists only the arguments that differ from their defaults, as PyTorch's `extra_repr`.
"""
from __future__ import annotations

import math

from ..factories import empty
from . import functional as F
from . import init
from .module import Module
from .parameter import Parameter

_PADDING_MODES = {"zeros", "reflect", "replicate", "circular"}


def _tuple(value, n: int) -> tuple:
    return tuple(value) if isinstance(value, (tuple, list)) else (value,) * n


class _ConvNd(Module):
    """What Conv1d and Conv2d share: argument checks, parameters, init and repr."""
    dims = 0

    def __init__(self, in_channels: int, out_channels: int, kernel_size, stride=1, padding=0,
                 dilation=1, groups: int = 1, bias: bool = True, padding_mode: str = "zeros",
                 device=None, dtype=None) -> None:
        super().__init__()
        d = self.dims
        if groups <= 0:
            raise ValueError("groups must be a positive integer")
        if in_channels % groups != 0:
            raise ValueError("in_channels must be divisible by groups")
        if out_channels % groups != 0:
            raise ValueError("out_channels must be divisible by groups")
        stride, dilation = _tuple(stride, d), _tuple(dilation, d)
        if isinstance(padding, str):
            if padding not in ("same", "valid"):
                raise ValueError(f"Invalid padding string {padding!r}, should be one of "
                                 "{'valid', 'same'}")
            if padding == "same" and any(s != 1 for s in stride):
                raise ValueError("padding='same' is not supported for strided convolutions")
        else:
            padding = _tuple(padding, d)
        if padding_mode not in _PADDING_MODES:
            raise ValueError(f"padding_mode must be one of {_PADDING_MODES}, but got "
                             f"padding_mode='{padding_mode}'")
        self.in_channels, self.out_channels = in_channels, out_channels
        self.kernel_size = _tuple(kernel_size, d)
        self.stride, self.padding, self.dilation = stride, padding, dilation
        self.transposed, self.output_padding = False, (0,) * d
        self.groups, self.padding_mode = groups, padding_mode
        self._reversed_padding_repeated_twice = self._mode_padding()
        self.weight = Parameter(empty(out_channels, in_channels // groups, *self.kernel_size,
                                      dtype=dtype))
        if bias:
            self.bias = Parameter(empty(out_channels, dtype=dtype))
        else:
            self.register_parameter("bias", None)
        self.reset_parameters()

    def _mode_padding(self) -> list:
        """F.pad's amounts (last dimension first) for a padding_mode other than zeros."""
        pads = []
        for k, d, i in zip(self.kernel_size, self.dilation, reversed(range(self.dims))):
            if self.padding == "same":
                total = d * (k - 1)
                pads += [total // 2, total - total // 2]
            elif self.padding == "valid":
                pads += [0, 0]
            else:
                pads += [self.padding[i]] * 2
        return pads

    def reset_parameters(self) -> None:
        init.kaiming_uniform_(self.weight, a=math.sqrt(5))
        if self.bias is not None:
            fan_in = self.weight.shape[1] * math.prod(self.kernel_size)
            if fan_in != 0:
                bound = 1 / math.sqrt(fan_in)
                init.uniform_(self.bias, -bound, bound)

    def _conv_forward(self, input, conv):
        if self.padding_mode != "zeros":
            input = F.pad(input, self._reversed_padding_repeated_twice, mode=self.padding_mode)
            return conv(input, self.weight, self.bias, self.stride, 0, self.dilation,
                        self.groups)
        return conv(input, self.weight, self.bias, self.stride, self.padding, self.dilation,
                    self.groups)

    def extra_repr(self) -> str:
        d = self.dims
        s = (f"{self.in_channels}, {self.out_channels}, kernel_size={self.kernel_size}, "
             f"stride={self.stride}")
        padding = self.padding if isinstance(self.padding, str) else tuple(self.padding)
        if padding != (0,) * d:
            s += f", padding={padding}"
        if self.dilation != (1,) * d:
            s += f", dilation={self.dilation}"
        if self.groups != 1:
            s += f", groups={self.groups}"
        if self.bias is None:
            s += ", bias=False"
        if self.padding_mode != "zeros":
            s += f", padding_mode={self.padding_mode}"
        return s


class Conv1d(_ConvNd):
    """1-D convolution over (N, C_in, L) -> (N, C_out, L_out).

    Example:
        >>> import gradstep.engine as torch
        >>> torch.nn.Conv1d(2, 4, 3, stride=2)
        Conv1d(2, 4, kernel_size=(3,), stride=(2,))
    """
    dims = 1

    def forward(self, input):
        return self._conv_forward(input, F.conv1d)


class Conv2d(_ConvNd):
    """2-D convolution over (N, C_in, H, W) -> (N, C_out, H_out, W_out).

    Example:
        >>> import gradstep.engine as torch
        >>> conv = torch.nn.Conv2d(1, 4, 3)
        >>> conv
        Conv2d(1, 4, kernel_size=(3, 3), stride=(1, 1))
        >>> type(conv(torch.ones(1, 1, 5, 5)).grad_fn).__name__
        'ConvolutionBackward0'
    """
    dims = 2

    def forward(self, input):
        return self._conv_forward(input, F.conv2d)


__all__ = ["Conv1d", "Conv2d"]
