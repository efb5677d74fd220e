"""`F.conv1d` / `F.conv2d`: checks in PyTorch's words, then one `ConvolutionBackward0`.

PyTorch counterparts: `torch.nn.functional.conv1d`, `conv2d`. An unbatched input gains its
batch dimension for the convolution and loses it after, as PyTorch's kernel does. Padding may
be an int, a tuple, 'valid' (none) or 'same' (stride 1 only; an uneven total pads the input
first, as PyTorch does). Re-exported by `engine.nn.functional`.
"""
from __future__ import annotations

from .. import messages
from ..ops import conv as _conv
from ..ops import padding as _pad
from ..tensor import Tensor


def _tuple(value, n: int) -> tuple:
    return tuple(int(v) for v in value) if isinstance(value, (tuple, list)) else (int(value),) * n


def _x(sizes: tuple) -> str:
    return " x ".join(map(str, sizes))


def _check(input: Tensor, weight: Tensor, groups: int, name: str, d: int) -> None:
    if input.ndim not in (d + 1, d + 2):
        raise RuntimeError(f"Expected {d + 1}D (unbatched) or {d + 2}D (batched) input to {name}, "
                           f"but got input of size: {list(input.shape)}")
    shape = list(input.shape) if input.ndim == d + 2 else [1] + list(input.shape)
    if shape[1] != weight.shape[1] * groups:
        raise RuntimeError(f"Given groups={groups}, weight of size {list(weight.shape)}, "
                           f"expected input{shape} to have {weight.shape[1] * groups} channels, "
                           f"but got {shape[1]} channels instead")


def _same(input: Tensor, kernel: tuple, dilation: tuple, stride: tuple):
    """The symmetric padding for 'same', after padding the input by any odd remainder."""
    if any(s != 1 for s in stride):
        raise RuntimeError("padding='same' is not supported for strided convolutions")
    total = [d * (k - 1) for k, d in zip(kernel, dilation)]
    extra = [t % 2 for t in total]
    if any(extra):
        messages.warn("Using padding='same' with even kernel lengths and odd dilation may "
                      "require a zero-padded copy of the input be created")
        pads = []
        for e in reversed(extra):
            pads += [0, e]
        input = _pad.constant_pad_nd(input, tuple(pads), 0)
    return input, tuple(t // 2 for t in total)


def _convnd(input, weight, bias, stride, padding, dilation, groups, name, d) -> Tensor:
    _check(input, weight, groups, name, d)
    kernel = tuple(weight.shape[2:])
    stride, dilation = _tuple(stride, d), _tuple(dilation, d)
    if padding == "same":
        input, padding = _same(input, kernel, dilation, stride)
    elif padding == "valid":
        padding = (0,) * d
    elif isinstance(padding, str):
        raise RuntimeError(f"Invalid padding string: '{padding}'")
    else:
        padding = _tuple(padding, d)
    unbatched = input.ndim == d + 1
    x = input.unsqueeze(0) if unbatched else input
    size = tuple(n + 2 * p for n, p in zip(x.shape[2:], padding))
    reach = tuple(dl * (k - 1) + 1 for k, dl in zip(kernel, dilation))
    if any(r > n for r, n in zip(reach, size)):
        raise RuntimeError(f"Calculated padded input size per channel: ({_x(size)}). Kernel "
                           f"size: ({_x(reach)}). Kernel size can't be greater than actual "
                           "input size")
    out = _conv.Convolution.apply(x, weight, bias, stride, padding, dilation, groups)
    return out.squeeze(0) if unbatched else out


def conv1d(input: Tensor, weight: Tensor, bias: Tensor | None = None, stride=1, padding=0,
           dilation=1, groups: int = 1) -> Tensor:
    """1-D cross-correlation of input (N, C, L) with weight (O, C/groups, K).

    Example:
        >>> import gradstep.engine as torch
        >>> conv1d(torch.ones(1, 1, 4), torch.ones(1, 1, 2)).tolist()
        [[[2.0, 2.0, 2.0]]]
    """
    return _convnd(input, weight, bias, stride, padding, dilation, groups, "conv1d", 1)


def conv2d(input: Tensor, weight: Tensor, bias: Tensor | None = None, stride=1, padding=0,
           dilation=1, groups: int = 1) -> Tensor:
    """2-D cross-correlation of input (N, C, H, W) with weight (O, C/groups, kH, kW)
    (`ConvolutionBackward0`).

    Example:
        >>> import gradstep.engine as torch
        >>> y = conv2d(torch.ones(1, 1, 3, 3), torch.ones(1, 1, 2, 2))
        >>> y.tolist()
        [[[[4.0, 4.0], [4.0, 4.0]]]]
    """
    return _convnd(input, weight, bias, stride, padding, dilation, groups, "conv2d", 2)
