"""Picking elements by index: gather, index_select, sort and topk (with their scatter adjoints).

PyTorch counterparts: `torch.gather`, `torch.index_select`, `torch.sort`, `torch.topk`. Their
backward scatters the gradient back to the picked positions, which is `ScatterAdd`; the
backward of that is a gather again, so both directions differentiate to any order.
"""
from __future__ import annotations

import numpy as np

from ..tensor import Tensor, new_tensor
from ._dims import dim_of
from ._op import Op
from .indexing import IndexPut
from .reduction import _ReturnType, return_type
from ..factories import zeros


sort_return, topk_return = return_type("sort"), return_type("topk")


def _scatter_add(sizes: tuple, dim: int, index: np.ndarray, src: np.ndarray) -> np.ndarray:
    out = np.zeros(sizes, dtype=src.dtype)
    grid = list(np.indices(index.shape, sparse=True))
    grid[dim] = index
    np.add.at(out, tuple(grid), src)
    return out


class Gather(Op):
    """out[i][j] = self[i][index[i][j]] (along dim)"""
    grad_fn_name, name = "GatherBackward0", "gather"
    saves = ("dim", "index", "self_sym_sizes", "sparse_grad")
    rule = "grad scattered (added) back to the gathered positions"

    def forward(self, dim, index, sparse_grad=False):
        return np.take_along_axis(self, index._data, axis=dim)

    def backward(ctx, grad):
        return (ScatterAdd.apply(grad, ctx.self_sym_sizes, ctx.dim, ctx.index),)

    @classmethod
    def sample_inputs(cls, make, shape):
        if shape:
            index = new_tensor(np.zeros(shape, dtype=np.int64) + (shape[0] - 1))
            yield make(shape), 0, index, False


class ScatterAdd(Op):
    """out = zeros(sizes), then out[index[i]] += self[i] along dim (gather's backward)"""
    grad_fn_name, name = "ScatterAddBackward0", "scatter_add"
    saves = ("dim", "index")
    rule = "grad gathered back at index"

    def forward(self, sizes, dim, index):
        return _scatter_add(sizes, dim, index._data, self)

    def backward(ctx, grad):
        return (Gather.apply(grad, ctx.dim, ctx.index, False),)

    @classmethod
    def sample_inputs(cls, make, shape):
        if shape:
            index = new_tensor(np.zeros(shape, dtype=np.int64))
            yield make(shape), tuple(shape), 0, index


class ValuesAndIndices(Op):
    """Base of the ops that answer (values, indices) (sort, topk here; kthvalue, median(dim)
    and mode in order_stats.py): forward returns the values and the indices as its extra, and
    apply wraps both in the op's named return type."""
    forward_extras = ("indices",)
    returns = _ReturnType

    @classmethod
    def apply(cls, self, *params):
        vals, extras = cls.forward(self._data, *params)
        out = cls._record((self,), vals, (self,) + params, extras)
        return cls.returns(out, extras[0])


class _Picked(ValuesAndIndices):
    """Shared by sort and topk: values taken at indices along dim; grad scattered back."""
    saves = ("dim", "indices", "self_sym_sizes")
    rule = "grad scattered back to where each value came from"

    def backward(ctx, grad):
        # PyTorch's value_selecting_reduction_backward: zeros with grad written (not added)
        # at the indices, so a -0. gradient stays -0.
        from .scatter import Scatter
        base = zeros(tuple(ctx.self_sym_sizes), dtype=grad.dtype)
        return (Scatter.apply(base, grad, ctx.dim, ctx.indices),)


class Sort(_Picked):
    """values, indices = self sorted along dim"""
    grad_fn_name, name, returns = "SortBackward0", "sort", sort_return

    def forward(self, dim, descending):
        idx = np.argsort(-self if descending else self, axis=dim, kind="stable")
        return np.take_along_axis(self, idx, axis=dim), (new_tensor(idx.astype(np.int64)),)

    @classmethod
    def sample_inputs(cls, make, shape):
        if shape:
            yield make(shape), 0, False


class Topk(_Picked):
    """values, indices = the k largest (or smallest) along dim"""
    grad_fn_name, name, returns = "TopkBackward0", "topk", topk_return

    def forward(self, k, dim, largest):
        idx = np.argsort(-self if largest else self, axis=dim, kind="stable")
        idx = np.take(idx, np.arange(k), axis=dim)
        return np.take_along_axis(self, idx, axis=dim), (new_tensor(idx.astype(np.int64)),)

    @classmethod
    def sample_inputs(cls, make, shape):
        if shape:
            yield make(shape), 1, 0, True


class IndexSelect(Op):
    """out = self's slices at index along dim"""
    grad_fn_name, name = "IndexSelectBackward0", "index_select"
    saves = ("dim", "index", "self_sym_sizes")
    rule = "grad added back at the selected slices"

    def forward(self, dim, index):
        return np.take(self, index._data, axis=dim)

    def backward(ctx, grad):
        key = (slice(None),) * ctx.dim + (ctx.index._data,)
        return (IndexPut.apply(grad, ctx.self_sym_sizes, key),)

    @classmethod
    def sample_inputs(cls, make, shape):
        if shape:
            yield make(shape), 0, new_tensor(np.array([0, shape[0] - 1, 0]))


# ---- public entry points ------------------------------------------------------------------
def _dim(d: int, ndim: int) -> int:
    return dim_of(d, ndim)


def gather(input: Tensor, dim: int, index: Tensor, *, sparse_grad: bool = False) -> Tensor:
    return Gather.apply(input, _dim(dim, input.ndim), index, sparse_grad)


def index_select(input: Tensor, dim: int, index: Tensor) -> Tensor:
    return IndexSelect.apply(input, _dim(dim, input.ndim), index)


def sort(input: Tensor, dim: int = -1, descending: bool = False):
    if input._data.dtype.kind == "c":
        raise RuntimeError(" Sort does not support complex dtypes on CPU")   # (its space)
    return Sort.apply(input, _dim(dim, input.ndim), descending)


def topk(input: Tensor, k: int, dim: int = -1, largest: bool = True, sorted: bool = True):
    return Topk.apply(input, k, _dim(dim, input.ndim), largest)


def argsort(input: Tensor, dim: int = -1, descending: bool = False) -> Tensor:
    return sort(input, dim, descending).indices
