"""2-D max and average pooling: what `F.max_pool2d` / `F.avg_pool2d` record.

PyTorch counterparts: `max_pool2d_with_indices` (`MaxPool2DWithIndicesBackward0`, saving the
argmax positions as `result1`, flat over each input plane) and `avg_pool2d`
(`AvgPool2DBackward0`). Windows are the same strided slices the convolution reads
(`conv._windows`). The backwards are numpy, so a second derivative raises rather than lie.
"""
from __future__ import annotations

import numpy as np

from ..grad_mode import state as _grad_state
from ..tensor import Tensor, new_tensor
from ._op import Op
from .conv import _windows

_NO_DOUBLE_BACKWARD = ("gradstep does not differentiate {} twice: it cannot be used with "
                       "create_graph=True")


def out_size(n: int, k: int, s: int, p: int, d: int, ceil_mode: bool) -> int:
    """PyTorch's pooling output length: a last window must start inside input or left pad."""
    span = n + 2 * p - d * (k - 1) - 1
    out = (span + (s - 1 if ceil_mode else 0)) // s + 1
    if ceil_mode and (out - 1) * s >= n + p:
        out -= 1
    return out


def _grid(x: np.ndarray, kernel, stride, padding, dilation, ceil_mode, fill) -> tuple:
    """x padded by `fill` (and past the right edge, for ceil_mode's last windows) and the
    output size; slicing it with `_windows` gives each kernel offset's values."""
    out = tuple(out_size(n, k, s, p, d, ceil_mode) for n, k, s, p, d
                in zip(x.shape[-2:], kernel, stride, padding, dilation))
    extra = [max(0, (o - 1) * s + d * (k - 1) + 1 - (n + 2 * p)) for o, s, d, k, n, p
             in zip(out, stride, dilation, kernel, x.shape[-2:], padding)]
    pads = [(0, 0)] * (x.ndim - 2) + [(p, p + e) for p, e in zip(padding, extra)]
    return np.pad(x, pads, constant_values=fill), out


def scatter_to_planes(shape: tuple, g: np.ndarray, indices: np.ndarray) -> np.ndarray:
    """An input-shaped gradient: each output's grad added at its plane-flat index, in output
    order (as PyTorch's max-pooling backwards add them)."""
    flat = np.zeros(shape[:-2] + (shape[-2] * shape[-1],), dtype=g.dtype)
    lead = g.shape[:-2]
    idx = indices.reshape(lead + (-1,))
    for i in np.ndindex(*lead):
        np.add.at(flat[i], idx[i], g[i].reshape(-1))
    return flat.reshape(shape)


class MaxPool2DWithIndices(Op):
    """out = the largest value in each (dilated) window; result1 = where it is"""
    grad_fn_name, name = "MaxPool2DWithIndicesBackward0", "max_pool2d_with_indices"
    saves = ("ceil_mode", "dilation", "kernel_size", "padding", "result1", "self", "stride")
    forward_extras = ("result1",)
    rule = "grad routed to the input position that was each window's maximum"
    derivative_orders = 1       # PyTorch has a second; gradstep's numpy backward raises

    def forward(self, kernel_size, stride, padding, dilation, ceil_mode, _stride):
        xp, out = _grid(self, kernel_size, _stride, padding, dilation, ceil_mode, -np.inf)
        wins = list(_windows(kernel_size, out, _stride, dilation))
        vals = np.stack([xp[w] for w in wins])
        pick = np.argmax(vals, axis=0)       # the first maximum, as PyTorch's scan keeps
        rows = np.arange(out[0])[:, None] * _stride[0] - padding[0]
        cols = np.arange(out[1])[None, :] * _stride[1] - padding[1]
        offsets = np.array(list(np.ndindex(*kernel_size))) * dilation
        at = (rows + offsets[pick, 0]) * self.shape[-1] + cols + offsets[pick, 1]
        return np.take_along_axis(vals, pick[None], 0)[0], (new_tensor(at.astype(np.int64)),)

    def backward(ctx, grad):
        if _grad_state.enabled:
            raise NotImplementedError(_NO_DOUBLE_BACKWARD.format("max_pool2d"))
        return (new_tensor(scatter_to_planes(ctx.self._data.shape, grad._data,
                                             ctx.result1._data)),)

    def jvp(ctx, self_t):        # PyTorch's: the tangent at each window's maximum
        return gather_at(self_t, ctx.result1, ctx.result)

    @classmethod
    def apply(cls, x: Tensor, kernel_size, stride, padding, dilation, ceil_mode) -> tuple:
        """(values, indices); `stride` is saved as given (() when omitted), used filled in."""
        args = (x, kernel_size, stride, padding, dilation, ceil_mode, stride or kernel_size)
        out, (indices,) = cls.forward(x._data, *args[1:])
        return cls._record((x,), out, args, (indices,)), indices

    @classmethod
    def sample_inputs(cls, make, shape):
        yield make((1, 2, 5, 4)), (2, 2), (), (1, 0), (1, 1), False
        yield make((2, 5, 5)), (3, 2), (2, 1), (1, 1), (2, 1), True


def gather_at(tangent: Tensor, indices: Tensor, result: Tensor) -> Tensor:
    """PyTorch's max-pooling forward derivative: gather(self_t.flatten(-2), -1,
    indices.flatten(-2)).view_as(result)."""
    return tangent.flatten(-2).gather(-1, indices.flatten(-2)).view_as(result)


class AvgPool2D(Op):
    """out = the mean of each window (padding counted unless count_include_pad=False)"""
    grad_fn_name, name = "AvgPool2DBackward0", "avg_pool2d"
    saves = ("ceil_mode", "count_include_pad", "divisor_override", "kernel_size", "padding",
             "self", "stride")
    rule = "grad / divisor spread over each window's input positions"
    derivative_orders = 1       # PyTorch has a second; gradstep's numpy backward raises

    def forward(self, kernel_size, stride, padding, ceil_mode, count_include_pad,
                divisor_override, _stride):
        xp, out = _grid(self, kernel_size, _stride, padding, (1, 1), ceil_mode, 0)
        wins = list(_windows(kernel_size, out, _stride, (1, 1)))
        total = sum(xp[w] for w in wins)
        div = _divisor(self, kernel_size, padding, ceil_mode, count_include_pad,
                       divisor_override, _stride)
        return (total / np.asarray(div, dtype=self.dtype)).astype(self.dtype, copy=False)

    def backward(ctx, grad):
        if _grad_state.enabled:
            raise NotImplementedError(_NO_DOUBLE_BACKWARD.format("avg_pool2d"))
        x, g = ctx.self._data, grad._data
        k, p, s = ctx.kernel_size, ctx.padding, ctx.stride or ctx.kernel_size
        div = _divisor(x, k, p, ctx.ceil_mode, ctx.count_include_pad, ctx.divisor_override, s)
        share = g / np.asarray(div, dtype=g.dtype)    # in grad's precision, as PyTorch
        gp, out = _grid(np.zeros_like(x), k, s, p, (1, 1), ctx.ceil_mode, 0)
        for w in _windows(k, out, s, (1, 1)):
            gp[w] += share
        h, wd = x.shape[-2:]
        return (new_tensor(gp[..., p[0]:p[0] + h, p[1]:p[1] + wd].astype(x.dtype)),)

    def jvp(ctx, self_t):        # linear: the same pooling of the tangent
        return AvgPool2D.apply(self_t, ctx.kernel_size, ctx.stride, ctx.padding, ctx.ceil_mode,
                               ctx.count_include_pad, ctx.divisor_override)

    @classmethod
    def apply(cls, x: Tensor, kernel_size, stride, padding, ceil_mode, count_include_pad,
              divisor_override) -> Tensor:
        args = (x, kernel_size, stride, padding, ceil_mode, count_include_pad,
                divisor_override, stride or kernel_size)
        return cls._record((x,), cls.forward(x._data, *args[1:]), args)

    @classmethod
    def sample_inputs(cls, make, shape):
        yield make((1, 2, 5, 4)), (2, 2), (), (1, 0), False, True, None
        yield make((2, 5, 5)), (3, 2), (2, 1), (1, 1), True, False, None


def _divisor(x, kernel, padding, ceil_mode, count_include_pad, divisor_override, stride):
    """Each window's divisor: divisor_override, or how many of its positions lie in the input
    (plus padding, with count_include_pad; never the ceil_mode overhang), as PyTorch counts."""
    if divisor_override:
        return divisor_override
    h, w = x.shape[-2:]
    plane = np.ones((h + 2 * padding[0], w + 2 * padding[1]))
    if not count_include_pad:
        plane[:padding[0]] = plane[h + padding[0]:] = 0
        plane[:, :padding[1]] = plane[:, w + padding[1]:] = 0
    out = tuple(out_size(n, k, s, p, 1, ceil_mode) for n, k, s, p
                in zip((h, w), kernel, stride, padding))
    plane = np.pad(plane, ((0, kernel[0] + stride[0]), (0, kernel[1] + stride[1])))
    return sum(plane[win] for win in _windows(kernel, out, stride, (1, 1)))
