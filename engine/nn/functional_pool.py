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
        >>> import gradstep.engine as torch
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
        >>> import gradstep.engine as torch
        >>> avg_pool2d(torch.arange(16.).reshape(1, 4, 4), 2).tolist()
        [[[2.5, 4.5], [10.5, 12.5]]]
    """
    kernel, stride, padding = _pair(kernel_size), _pair(stride), _pair(padding)
    _check(input, kernel, stride, padding, (1, 1), ceil_mode)
    return _pool.AvgPool2D.apply(input, kernel, stride, padding, bool(ceil_mode),
                                 bool(count_include_pad), divisor_override)


def _single(name: str, value, what: str):
    """A 1-D pooling size: an int or a one-element sequence (PyTorch's message otherwise)."""
    if isinstance(value, (tuple, list)):
        if len(value) != 1:
            raise RuntimeError(what.format(name=name, n=len(value)))
        return int(value[0])
    return None if value is None else int(value)


_MAX1D_SIZE = ("max_pool1d() {name} must be an int, list of ints or tuple of ints of size 1 "
               "but got size {n}")
_AVG1D_SIZE = "avg_pool1d() argument '{name}' should contain one int (got {n})"


def max_pool1d(input: Tensor, kernel_size, stride=None, padding=0, dilation=1,
               ceil_mode: bool = False, return_indices: bool = False):
    """max_pool2d over a height of one: PyTorch unsqueezes dim -2, pools and squeezes it.

    Example:
        >>> import gradstep.engine as torch
        >>> max_pool1d(torch.tensor([[1., 3., 2., 0.]]), 2).tolist()
        [[3.0, 2.0]]
    """
    k, s, p, d = (_single(n, v, _MAX1D_SIZE) for n, v in (
        ("kernel_size", kernel_size), ("stride", stride), ("padding", padding),
        ("dilation", dilation)))
    s = k if s is None else s
    if input.ndim not in (2, 3) or 0 in input.shape[-2:]:
        raise RuntimeError("max_pool1d: Expected 2D or 3D (batch mode) tensor with optional 0 "
                           f"dim batch size for input, but got:{list(input.shape)}")
    if p > k // 2:
        raise RuntimeError("max_pool1d() padding should be at most half of kernel size, but "
                           f"got padding={p} and kernel_size={k}")
    size = _pool.out_size(input.shape[-1], k, s, p, d, ceil_mode)
    if size < 1:
        raise RuntimeError(f"max_pool1d() Invalid computed output size: {size}")
    if not input.dtype.is_floating_point:
        from .functional import _dtype_word   # functional imports this module at its end
        raise NotImplementedError(f'"max_pool1d_impl" not implemented for '
                                  f"'{_dtype_word(input)}'")
    out, indices = _pool.MaxPool2DWithIndices.apply(input.unsqueeze(-2), (1, k), (1, s),
                                                    (0, p), (1, d), bool(ceil_mode))
    out = out.squeeze(-2)
    return (out, indices.squeeze(-2)) if return_indices else out


def avg_pool1d(input: Tensor, kernel_size, stride=None, padding=0, ceil_mode: bool = False,
               count_include_pad: bool = True) -> Tensor:
    """avg_pool2d over a height of one: PyTorch unsqueezes dim -2, pools and squeezes it.

    Example:
        >>> import gradstep.engine as torch
        >>> avg_pool1d(torch.tensor([[1., 3., 2., 0.]]), 2).tolist()
        [[2.0, 1.0]]
    """
    k, s, p = (_single(n, v, _AVG1D_SIZE) for n, v in (
        ("kernel_size", kernel_size), ("stride", stride), ("padding", padding)))
    s = k if s is None else s
    if input.ndim not in (2, 3):
        raise RuntimeError(f"Expected 2 to 3 dimensions, but got {input.ndim}-dimensional "
                           "tensor for argument #1 'self' (while checking arguments for "
                           "avg_pool1d)")
    return avg_pool2d(input.unsqueeze(-2), (1, k), (1, s), (0, p), ceil_mode,
                      count_include_pad).squeeze(-2)
