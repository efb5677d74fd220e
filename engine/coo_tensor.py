"""Sparse COO tensors: the gradient `embedding(..., sparse=True)` sends to its weight.

PyTorch counterpart: a `torch.Tensor` with `layout=torch.sparse_coo` (one sparse dimension
here: the rows of a weight). It holds `indices` (1, nnz) int64 and `values` (nnz, *rest),
possibly with repeated rows ("uncoalesced") until `coalesce()` sums them. The engine keeps
the dense sum in `_data` as well, so the trace and the picture show the gradient's values.

What a user sees of it is PyTorch's: its repr, `is_sparse`, `layout`, `_indices()`,
`_values()`, `indices()`/`values()` (coalesced only), `coalesce()`, `to_dense()`, `zero_()`,
and how a second backward adds into it (see `add_sparse`).
"""
from __future__ import annotations

import numpy as np

from .layouts import layout, sparse_coo
from .printing import sparse_repr
from .tensor import Tensor, _init, new_tensor


def _densify(indices: np.ndarray, values: np.ndarray, size: tuple) -> np.ndarray:
    # PyTorch's to_dense adds the entries one after another, in their order
    dense = np.zeros(size, values.dtype)
    np.add.at(dense, indices[0], values)
    return dense


class SparseCooTensor(Tensor):
    """A sparse COO tensor with one sparse dimension (rows); dense values per row."""

    _torch_name = "torch.Tensor"
    __slots__ = ("_ind", "_val", "_coal")

    def _set(self, indices: np.ndarray, values: np.ndarray, coalesced: bool) -> None:
        self._ind, self._val, self._coal = indices, values, coalesced
        self._data = _densify(indices, values, self._data.shape)
        # the dense copy is derived: a dense in-place op writing it would leave the entries
        # behind (and the optimizers read the entries), so such a write fails loudly
        self._data.flags.writeable = False

    @property
    def is_sparse(self) -> bool:
        return True

    @property
    def layout(self) -> layout:
        return sparse_coo

    def _nnz(self) -> int:
        return int(self._ind.shape[1])

    def sparse_dim(self) -> int:
        return 1

    def dense_dim(self) -> int:
        return self._val.ndim - 1

    def is_coalesced(self) -> bool:
        return self._coal

    def _indices(self) -> Tensor:
        return new_tensor(self._ind)

    def _values(self) -> Tensor:
        return new_tensor(self._val)

    def indices(self) -> Tensor:
        if not self._coal:
            raise RuntimeError("Cannot get indices on an uncoalesced tensor, please call "
                               ".coalesce() first")
        return new_tensor(self._ind)

    def values(self) -> Tensor:
        if not self._coal:
            raise RuntimeError("Cannot get values on an uncoalesced tensor, please call "
                               ".coalesce() first")
        return new_tensor(self._val)

    def coalesce(self) -> "SparseCooTensor":
        """Rows sorted, each once, its entries summed (in their order); self if coalesced."""
        if self._coal:
            return self
        rows = self._ind[0]
        unique, where = np.unique(rows, return_inverse=True)
        values = np.zeros((unique.size,) + self._val.shape[1:], self._val.dtype)
        np.add.at(values, where, self._val)
        return sparse_tensor(unique[None, :], values, self.shape, coalesced=True)

    def to_dense(self, dtype=None, *, masked_grad=None) -> Tensor:
        out = new_tensor(self._data.copy())
        return out if dtype is None else out.to(dtype)

    def add_(self, other, *, alpha=1) -> "SparseCooTensor":
        if not (isinstance(other, Tensor) and other.is_sparse):
            raise RuntimeError("add(sparse, dense) is not supported. Use add(dense, sparse) "
                               "instead.")
        if alpha != 1:
            other = other.clone().mul_(alpha)
        return add_sparse(self, other, in_place=True)

    def mul_(self, other) -> "SparseCooTensor":
        """Scales the entries by a number (what clipping or averaging a gradient does)."""
        if isinstance(other, Tensor):
            if other.ndim or other.is_sparse:
                raise NotImplementedError("mul_ of a sparse tensor by a tensor is not "
                                          "supported; multiply by a number")
            other = other.item()
        self._set(self._ind, self._val * self._val.dtype.type(other), self._coal)
        return self

    def div_(self, other) -> "SparseCooTensor":
        if isinstance(other, Tensor):
            if other.ndim or other.is_sparse:
                raise NotImplementedError("div_ of a sparse tensor by a tensor is not "
                                          "supported; divide by a number")
            other = other.item()
        self._set(self._ind, self._val / self._val.dtype.type(other), self._coal)
        return self

    def zero_(self) -> "SparseCooTensor":
        self._set(np.zeros((1, 0), np.int64),
                  np.zeros((0,) + self._val.shape[1:], self._val.dtype), True)
        return self

    def clone(self, *, memory_format=None) -> "SparseCooTensor":
        return sparse_tensor(self._ind.copy(), np.ascontiguousarray(self._val).copy(),
                             self.shape, self._coal)

    def __repr__(self, *, tensor_contents=None) -> str:
        return sparse_repr(self)

    __str__ = __repr__

    def __deepcopy__(self, memo) -> "SparseCooTensor":
        return self.clone()


def sparse_tensor(indices: np.ndarray, values: np.ndarray, size, coalesced: bool = False
                  ) -> SparseCooTensor:
    """A sparse COO tensor of `size` with rows `indices` (1, nnz) holding `values`."""
    t = object.__new__(SparseCooTensor)
    _init(t, np.zeros(tuple(size), values.dtype))
    t._set(indices.astype(np.int64, copy=False), values, coalesced)
    return t


def is_sparse(t) -> bool:
    return type(t) is SparseCooTensor


def add_sparse(old: SparseCooTensor, new: SparseCooTensor, in_place: bool) -> SparseCooTensor:
    """old + new, both sparse, as PyTorch's CPU kernel adds them.

    When either's values are not contiguous (a gradient read from a broadcast, like the one
    of `.sum()`), PyTorch concatenates the entries; otherwise it merges the two lists in
    row order, summing the entries of one row that meet (a merge of sorted lists, applied
    as is to unsorted ones). The result is coalesced only if both were.
    """
    if not new._nnz():
        ind, val, coal = old._ind, old._val, old._coal
    elif not old._nnz():
        ind, val, coal = new._ind, new._val, new._coal
    elif not (old._val.flags.c_contiguous and new._val.flags.c_contiguous):
        ind = np.concatenate([old._ind, new._ind], axis=1)
        val = np.concatenate([old._val, new._val.astype(old._val.dtype)], axis=0)
        coal = False
    else:
        ind, val = _merge(old, new)
        coal = old._coal and new._coal
    if in_place:
        old._set(ind, np.ascontiguousarray(val), coal)
        return old
    return sparse_tensor(ind, np.ascontiguousarray(val), old.shape, coal)


def _merge(t: SparseCooTensor, s: SparseCooTensor) -> tuple:
    a, b = t._ind[0].tolist(), s._ind[0].tolist()
    rows, vals = [], []
    i = j = 0
    while i < len(a) or j < len(b):
        if i >= len(a):
            cmp = -1
        elif j >= len(b):
            cmp = 1
        else:
            cmp = int(a[i] < b[j]) - int(a[i] > b[j])
        v = None
        if cmp >= 0:
            rows.append(a[i])
            v = t._val[i].copy()
            i += 1
        if cmp <= 0:
            if v is None:
                rows.append(b[j])
                v = s._val[j].astype(t._val.dtype)
            else:
                v = v + s._val[j]
            j += 1
        vals.append(v)
    return np.array(rows, np.int64)[None, :], np.stack(vals)


def add_grads(old: Tensor, new: Tensor, in_place: bool) -> Tensor:
    """old + new for two gradients of one tensor, either of them sparse."""
    if is_sparse(old) and is_sparse(new):
        return add_sparse(old, new, in_place)   # type: ignore[arg-type]
    if is_sparse(old):      # PyTorch: dense + sparse, a new dense tensor
        return new_tensor(new._data + old._data)
    if in_place:     # PyTorch adds the entries into the dense gradient one by one
        np.add.at(old._data, new._ind[0], new._val)     # type: ignore[attr-defined]
        return old
    return new_tensor(old._data + new._data)


# the autograd walk reaches it through a sparse gradient in hand (it cannot import this
# module at load time: that would close an import cycle)
SparseCooTensor._add_grads = staticmethod(add_grads)     # type: ignore[attr-defined]

__all__ = ["SparseCooTensor", "add_grads", "add_sparse", "is_sparse", "sparse_tensor"]
