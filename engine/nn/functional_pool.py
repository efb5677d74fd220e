"""`F.max_pool2d` / `F.avg_pool2d`: PyTorch's checks, then one pooling op.

PyTorch counterparts: `torch.nn.functional.max_pool2d` (`MaxPool2DWithIndicesBackward0`) and
`avg_pool2d` (`AvgPool2DBackward0`), on (C, H, W) or (N, C, H, W) inputs. Sizes may be ints or
pairs; the node saves them as pairs, and stride as () when it was omitted (it then equals the
kernel). Re-exported by `engine.nn.functional`.
"""
from __future__ import annotations

from ..ops import pooling as _pool
from ..tensor import Tensor


def _pair(value) -> tuple:
    if value is None:
        return ()
    return tuple(int(v) for v in value) if isinstance(value, (tuple, list)) else (int(value),) * 2


def _check(input: Tensor, kernel, stride, padding, dilation, ceil_mode) -> None:
    if input.ndim not in (3, 4) or input.numel() == 0:
        raise RuntimeError("non-empty 3D or 4D (batch mode) tensor expected for input")
    for k, p, d in zip(kernel, padding, dilation):
        if p > (d * (k - 1) + 1) // 2:
            raise RuntimeError("pad should be at most half of effective kernel size, but got "
                               f"pad={p}, kernel_size={k} and dilation={d}")
    out = [_pool.out_size(n, k, s, p, d, ceil_mode) for n, k, s, p, d
           in zip(input.shape[-2:], kernel, stride or kernel, padding, dilation)]
    if min(out) < 1:
        c, h, w = input.shape[-3:]
        raise RuntimeError(f"Given input size: ({c}x{h}x{w}). Calculated output size: "
                           f"({c}x{out[0]}x{out[1]}). Output size is too small")


def max_pool2d(input: Tensor, kernel_size, stride=None, padding=0, dilation=1,
               ceil_mode: bool = False, return_indices: bool = False):
    """The maximum of each kernel_size window, windows `stride` apart (default: kernel_size).

    Example:
        >>> import engine as torch
        >>> max_pool2d(torch.arange(16.).reshape(1, 4, 4), 2).tolist()
        [[[5.0, 7.0], [13.0, 15.0]]]
    """
    kernel, stride = _pair(kernel_size), _pair(stride)
    padding, dilation = _pair(padding), _pair(dilation)
    _check(input, kernel, stride, padding, dilation, ceil_mode)
    out, indices = _pool.MaxPool2DWithIndices.apply(input, kernel, stride, padding, dilation,
                                                    bool(ceil_mode))
    return (out, indices) if return_indices else out


def avg_pool2d(input: Tensor, kernel_size, stride=None, padding=0, ceil_mode: bool = False,
               count_include_pad: bool = True, divisor_override=None) -> Tensor:
    """The mean of each kernel_size window, windows `stride` apart (default: kernel_size).

    Example:
        >>> import engine as torch
        >>> avg_pool2d(torch.arange(16.).reshape(1, 4, 4), 2).tolist()
        [[[2.5, 4.5], [10.5, 12.5]]]
    """
    kernel, stride, padding = _pair(kernel_size), _pair(stride), _pair(padding)
    _check(input, kernel, stride, padding, (1, 1), ceil_mode)
    return _pool.AvgPool2D.apply(input, kernel, stride, padding, bool(ceil_mode),
                                 bool(count_include_pad), divisor_override)
