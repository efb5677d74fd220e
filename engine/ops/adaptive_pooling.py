"""Adaptive 2-D average and max pooling: what `F.adaptive_avg_pool2d` / `adaptive_max_pool2d`
record.

PyTorch counterparts: `_adaptive_avg_pool2d` (`AdaptiveAvgPool2DBackward0`) and
`adaptive_max_pool2d` (`AdaptiveMaxPool2DBackward0`, saving the argmax positions as `result1`,
flat over each input plane). Output cell i along a dimension of n inputs and o outputs reads
inputs floor(i*n/o) up to ceil((i+1)*n/o), so neighbouring windows may overlap or differ in
size. Sums, divisions and maxima follow PyTorch's CPU loops (row by row, sum / kh / kw, strict
`>` or NaN), so values agree to the last bit. The backwards are numpy: a second derivative
raises rather than lie.
"""
from __future__ import annotations

import numpy as np

from ..grad_mode import state as _grad_state
from ..tensor import Tensor, new_tensor
from ._op import Op
from .pooling import _NO_DOUBLE_BACKWARD, scatter_to_planes


def bounds(n: int, o: int) -> tuple:
    """Start and end (exclusive) of each of `o` adaptive windows over `n` positions."""
    i = np.arange(o)
    return (i * n) // o, ((i + 1) * n + o - 1) // o


def _offsets(x: np.ndarray, out: tuple):
    """For each offset (a, b) inside the largest window, row-major as PyTorch visits them: the
    input rows and columns each output cell reads there, and which cells have that offset."""
    (h0, h1), (w0, w1) = bounds(x.shape[-2], out[0]), bounds(x.shape[-1], out[1])
    kh, kw = h1 - h0, w1 - w0
    for a in range(int(kh.max(initial=0))):
        for b in range(int(kw.max(initial=0))):
            rows, cols = np.minimum(h0 + a, h1 - 1), np.minimum(w0 + b, w1 - 1)
            yield rows[:, None], cols[None, :], (a < kh)[:, None] & (b < kw)[None, :]


def _sizes(n_in: tuple, out: tuple) -> tuple:
    """Each output cell's window height and width, as (o_h, 1) and (1, o_w) arrays."""
    (h0, h1), (w0, w1) = bounds(n_in[0], out[0]), bounds(n_in[1], out[1])
    return (h1 - h0)[:, None], (w1 - w0)[None, :]


class AdaptiveAvgPool2D(Op):
    """out = the mean of each adaptive window"""
    grad_fn_name, name = "AdaptiveAvgPool2DBackward0", "adaptive_avg_pool2d"
    jvp = "linear"
    saves = ("self",)
    rule = "grad / window size spread over each window's input positions"
    derivative_orders = 1       # PyTorch has a second; gradstep's numpy backward raises

    def forward(self, output_size):
        total = np.zeros(self.shape[:-2] + tuple(output_size), dtype=self.dtype)
        for rows, cols, inside in _offsets(self, output_size):
            total += np.where(inside, self[..., rows, cols], 0)
        kh, kw = _sizes(self.shape[-2:], output_size)
        return total / kh.astype(self.dtype) / kw.astype(self.dtype)

    def backward(ctx, grad):
        if _grad_state.enabled:
            raise NotImplementedError(_NO_DOUBLE_BACKWARD.format("adaptive_avg_pool2d"))
        x, g = ctx.self._data, grad._data
        out = g.shape[-2:]
        kh, kw = _sizes(x.shape[-2:], out)
        share = g / kh.astype(g.dtype) / kw.astype(g.dtype)
        (h0, h1), (w0, w1) = bounds(x.shape[-2], out[0]), bounds(x.shape[-1], out[1])
        gi = np.zeros(x.shape, dtype=g.dtype)
        for i, j in np.ndindex(*out):       # cell by cell: overlapping windows add in order
            gi[..., h0[i]:h1[i], w0[j]:w1[j]] += share[..., i, j, None, None]
        return (new_tensor(gi.astype(x.dtype, copy=False)),)

    @classmethod
    def sample_inputs(cls, make, shape):
        yield make((1, 2, 5, 7)), (3, 4)
        yield make((2, 4, 4)), (2, 3)


class AdaptiveMaxPool2D(Op):
    """out = the largest value in each adaptive window; result1 = where it is"""
    grad_fn_name, name = "AdaptiveMaxPool2DBackward0", "adaptive_max_pool2d"
    saves = ("result1", "self")
    forward_extras = ("result1",)
    rule = "grad routed to the input position that was each window's maximum"
    derivative_orders = 1       # PyTorch has a second; gradstep's numpy backward raises

    def forward(self, output_size):
        (h0, _), (w0, _) = (bounds(self.shape[-2], output_size[0]),
                            bounds(self.shape[-1], output_size[1]))
        shape = self.shape[:-2] + tuple(output_size)
        best = np.full(shape, -np.inf, dtype=self.dtype)
        at = np.broadcast_to(h0[:, None] * self.shape[-1] + w0[None, :], shape).copy()
        for rows, cols, inside in _offsets(self, output_size):
            v = self[..., rows, cols]
            take = inside & ((v > best) | np.isnan(v))   # PyTorch's scan: a later NaN wins
            best = np.where(take, v, best)
            at = np.where(take, rows * self.shape[-1] + cols, at)
        return best, (new_tensor(at.astype(np.int64)),)

    def backward(ctx, grad):
        if _grad_state.enabled:
            raise NotImplementedError(_NO_DOUBLE_BACKWARD.format("adaptive_max_pool2d"))
        return (new_tensor(scatter_to_planes(ctx.self._data.shape, grad._data,
                                             ctx.result1._data)),)

    def jvp(ctx, self_t):        # PyTorch's: the tangent at each window's maximum
        from .pooling import gather_at
        return gather_at(self_t, ctx.result1, ctx.result)

    @classmethod
    def apply(cls, x: Tensor, output_size) -> tuple:
        """(values, indices)"""
        out, (indices,) = cls.forward(x._data, output_size)
        return cls._record((x,), out, (x, output_size), (indices,)), indices

    @classmethod
    def sample_inputs(cls, make, shape):
        yield make((1, 2, 5, 7)), (3, 4)
        yield make((2, 4, 4)), (2, 3)
