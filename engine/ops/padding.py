"""Constant padding: `torch.constant_pad_nd`, what `F.pad(mode="constant")` records.

PyTorch counterpart: `torch.constant_pad_nd` (`ConstantPadNdBackward0`). `pad` lists
(before, after) pairs starting from the last dimension; negative amounts crop. The node keeps
`pad` as unsigned 64-bit integers, as PyTorch's does (-1 reads 2**64 - 1); its backward is the
opposite padding of the gradient.
"""
from __future__ import annotations

import numpy as np

from ..tensor import Tensor
from ._op import Op


def _signed(pad: tuple) -> tuple:
    return tuple(p - 2 ** 64 if p >= 2 ** 63 else p for p in pad)


def _unsigned(pad) -> tuple:
    return tuple(int(p) % 2 ** 64 for p in pad)


class ConstantPadNd(Op):
    """out = self with pad[2k] / pad[2k+1] entries of value before / after dim -1-k"""
    grad_fn_name, name, saves = "ConstantPadNdBackward0", "constant_pad_nd", ("pad",)
    rule = "grad cropped by the padding (constant_pad_nd with -pad)"

    def forward(self, pad, value=0):
        pad, nd = _signed(pad), self.ndim
        crop = [slice(None)] * nd
        widths = [(0, 0)] * nd
        for k in range(len(pad) // 2):
            d, lo, hi = nd - 1 - k, pad[2 * k], pad[2 * k + 1]
            crop[d] = slice(max(-lo, 0), self.shape[d] - max(-hi, 0))
            widths[d] = (max(lo, 0), max(hi, 0))
        fill = np.asarray(value).astype(self.dtype)
        return np.pad(self[tuple(crop)], widths, constant_values=fill)

    def backward(ctx, grad):
        return (ConstantPadNd.apply(grad, _unsigned(-p for p in _signed(ctx.pad)), 0),)

    @classmethod
    def sample_inputs(cls, make, shape):
        if shape:
            yield make(shape), _unsigned((1, 2))
            yield make(shape), _unsigned((-1, 1) + (1, 0) * (len(shape) > 1))


def checked_pad(pad, ndim: int) -> tuple:
    """`pad` as a tuple of ints, or PyTorch's error for a length that fits no `ndim`-d input
    (every padding mode checks these two first)."""
    pad = tuple(int(p) for p in pad)
    if len(pad) % 2:
        raise RuntimeError("Padding length must be divisible by 2")
    if len(pad) > 2 * ndim:
        raise RuntimeError("Padding length should be less than or equal to two times the "
                           f"input dimension but got padding length {len(pad)} and input of "
                           f"dimension {ndim}")
    return pad


def constant_pad_nd(input: Tensor, pad, value=0) -> Tensor:
    """`input` padded with `value` (negative amounts crop), last dimension first.

    Example:
        >>> import gradstep.engine as torch
        >>> torch.constant_pad_nd(torch.tensor([1., 2.]), (1, 0)).tolist()
        [0.0, 1.0, 2.0]
    """
    pad = checked_pad(pad, input.ndim)
    for k in range(len(pad) // 2):
        if input._data.shape[input.ndim - 1 - k] + min(pad[2 * k], 0) + min(pad[2 * k + 1], 0) < 0:
            raise RuntimeError("narrow(): length must be non-negative.")
    return ConstantPadNd.apply(input, _unsigned(pad), value)
