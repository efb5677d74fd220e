"""Bags of embeddings: the rows a bag's indices pick, summed, averaged or maxed.

PyTorch counterpart: `torch.embedding_bag` (what `F.embedding_bag` and `nn.EmbeddingBag`
record, `EmbeddingBagBackward0`, with edges to the weight and the per-sample weights).
Argument checks live in `engine/nn/functional_embedding_bag.py`. A bag runs from its offset
to the next one (the last to the end of the indices, unless include_last_offset); indices
equal to padding_idx are left out, and an empty bag gives zeros.
"""
from __future__ import annotations

import numpy as np

from ..tensor import Tensor, new_tensor
from ._broadcast import records_nothing
from ._exact import fma32
from ._op import Op

SUM, MEAN, MAX = 0, 1, 2


def _bag_rows(indices: np.ndarray, offsets: np.ndarray, include_last_offset: bool,
              padding_idx: int) -> list:
    """The positions of the indices in each bag, padding_idx's left out."""
    starts = offsets[:-1] if include_last_offset else offsets
    ends = list(offsets[1:]) + ([] if include_last_offset else [indices.size])
    return [[i for i in range(s, e) if indices[i] != padding_idx] for s, e in zip(starts, ends)]


def _fma(a, b, c):
    return fma32(a, b, c) if a.dtype == np.float32 else a * b + c


class EmbeddingBag(Op):
    """out[b] = sum (or mean, or max) of weight[indices[i]] (* per_sample_weights[i]) over bag b"""
    grad_fn_name, name, n_inputs = "EmbeddingBagBackward0", "embedding_bag", 2
    saves = ("indices", "offsets", "mode", "per_sample_weights", "weight",
             "maximum_indices", "_include_last_offset", "_padding_idx")
    forward_extras = ("maximum_indices",)
    rule = "each bag's gradient sent to the rows it read (/ bag size for mean; max: the argmax)"

    def forward(weight, per_sample_weights, indices, offsets, mode, _include_last_offset=False,
                _padding_idx=-1):
        idx = indices._data.astype(np.int64, copy=False)
        bags = _bag_rows(idx, offsets._data.astype(np.int64), _include_last_offset, _padding_idx)
        out = np.zeros((len(bags), weight.shape[1]), weight.dtype)
        arg = np.full(out.shape if mode == MAX else (0,), -1, np.int64)
        for b, rows in enumerate(bags):
            if rows and mode == MAX:
                vals = weight[idx[rows]]
                first = vals.argmax(0)
                out[b], arg[b] = vals[first, np.arange(vals.shape[1])], idx[rows][first]
            for i in rows if mode != MAX else ():
                # a weighted row is added as one fused multiply-add, as ATen's axpy does
                out[b] = (_fma(weight[idx[i]], per_sample_weights[i], out[b])
                          if per_sample_weights.size else out[b] + weight[idx[i]])
            if rows and mode == MEAN:
                out[b] = out[b] / out.dtype.type(len(rows))
        return out, (new_tensor(arg),)

    def backward(ctx, grad):
        need_w, need_p = ctx.needs_input_grad
        weight, idx = ctx.weight, ctx.indices._data.astype(np.int64, copy=False)
        bags = _bag_rows(idx, ctx.offsets._data.astype(np.int64), ctx._include_last_offset,
                         ctx._padding_idx)
        pos = np.array([i for rows in bags for i in rows], np.int64)
        bag_of = new_tensor(np.array([b for b, rows in enumerate(bags) for _ in rows], np.int64))
        grad_w = grad_p = None
        if need_w and ctx.mode == MAX:
            grad_w = _max_backward(grad, ctx.maximum_indices._data, weight.shape)
        elif need_w and records_nothing():
            grad_w = new_tensor(_dense_backward(grad._data, idx, pos, bag_of._data, bags,
                                                ctx.mode, ctx.per_sample_weights._data,
                                                weight.shape))
        elif need_w:
            rows = grad.index_select(0, bag_of)
            if ctx.mode == MEAN:
                # ATen scales by 1 / size (rounded) rather than dividing
                scale = np.array([1.0 / len(r) for r in bags for _ in r], grad._data.dtype)
                rows = rows * new_tensor(scale[:, None])
            if ctx.per_sample_weights.numel():
                rows = rows * ctx.per_sample_weights.index_select(0, new_tensor(pos))[:, None]
            grad_w = grad.new_zeros(weight.shape).index_add(0, new_tensor(idx[pos]), rows)
        if need_p and ctx.per_sample_weights.numel() and records_nothing():
            dots = _dots(grad._data[bag_of._data], weight._data[idx[pos]])
            out = np.zeros(idx.size, grad._data.dtype)
            out[pos] = dots
            grad_p = new_tensor(out)
        elif need_p and ctx.per_sample_weights.numel():      # not the empty stand-in
            dots = (grad.index_select(0, bag_of)
                    * weight.index_select(0, new_tensor(idx[pos]))).sum(1)
            grad_p = grad.new_zeros((idx.size,)).index_add(0, new_tensor(pos), dots)
        return grad_w, grad_p

    @classmethod
    def sample_inputs(cls, make, shape):
        n = max((shape + (3,))[0], 3)
        idx, offsets = new_tensor(np.array([0, n - 1, 1, 1])), new_tensor(np.array([0, 1]))
        yield make((n, 2)), make((0,)), idx, offsets, SUM
        yield make((n, 2)), make((0,)), idx, offsets, MEAN
        yield make((n, 2)), make((4,)), idx, offsets, SUM


def _dense_backward(grad: np.ndarray, idx: np.ndarray, pos: np.ndarray, bag_of: np.ndarray,
                    bags: list, mode: int, per_sample_weights: np.ndarray, shape: tuple):
    """The weight's gradient as ATen adds it: each index's bag gradient scaled (by its weight,
    by 1 / bag size for mean, the scale rounded to the dtype) and added in one fused
    multiply-add per element (axpy), an index's contributions in the order they occur."""
    out = np.zeros(shape, grad.dtype)
    sizes = [len(rows) for rows in bags]
    for p, b in zip(pos, bag_of):
        scale = float(per_sample_weights[p]) if per_sample_weights.size else 1.0
        if mode == MEAN:
            scale /= sizes[b]
        out[idx[p]] = _fma(np.full(shape[1], scale, grad.dtype), grad[b], out[idx[p]])
    return out


def _dots(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    """Row-wise dot products in the order of PyTorch's float32 dot kernel: products summed
    into 4 lanes in turn (the tail into the first lanes), then (l0 + l1) + (l2 + l3). Measured
    for rows of up to 8 elements; longer rows may differ from PyTorch in the last bit."""
    prod = a * b
    width = prod.shape[1]
    if width < 4:
        acc = prod[:, 0]
        for i in range(1, width):
            acc = acc + prod[:, i]
        return acc
    lanes = prod[:, :4].copy()
    for i in range(4, width):
        lanes[:, i % 4] = lanes[:, i % 4] + prod[:, i]
    return (lanes[:, 0] + lanes[:, 1]) + (lanes[:, 2] + lanes[:, 3])


def _max_backward(grad: Tensor, maximum_indices: np.ndarray, shape: tuple) -> Tensor:
    """Each bag's gradient to the row that held the maximum, column by column."""
    width = shape[1]
    flat = (maximum_indices * width + np.arange(width)).reshape(-1)
    keep = np.flatnonzero(maximum_indices.reshape(-1) >= 0)
    src = grad.reshape(-1).index_select(0, new_tensor(keep))
    out = grad.new_zeros((shape[0] * width,)).index_add(0, new_tensor(flat[keep]), src)
    return out.view(shape)


__all__ = ["EmbeddingBag"]
