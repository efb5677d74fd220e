"""Order statistics: kthvalue, median and mode (values with the indices they came from).

PyTorch counterparts: `torch.kthvalue`, `torch.median`, `torch.mode`. Along a dim they return
`torch.return_types.<op>(values, indices)` and their backward puts the gradient at the chosen
index; `median()` of all elements returns one value and shares its gradient among the ties.

# NOTE [which index among ties]
# The index each op reports for tied values is the one PyTorch's CPU kernel lands on, so it
# is pinned here by the algorithm, not by a sort: kthvalue partitions the row with a
# median-of-three quickselect (the tie it ends on depends on the swaps it made); median(dim)
# orders by (value, index) and takes the ((n - 1) // 2)-th, or the first NaN when there is
# one; mode takes the smallest most frequent value and its last position.
"""
from __future__ import annotations

import numpy as np

from ..tensor import Tensor, new_tensor
from ._dims import dim_of
from ._op import Op, as_array
from .reduction import return_type
from .selection import ValuesAndIndices

kthvalue_return = return_type("kthvalue")
median_return, mode_return = return_type("median"), return_type("mode")


def _gt_or_nan(x, y) -> bool:
    """x sorts after y: NaN sorts last (the comparison PyTorch's quickselect uses)."""
    return (x != x and y == y) or x > y


def _quickselect(row: list, k: int) -> int:
    """The original position of the element a median-of-three quickselect leaves at `k`."""
    arr, pos = list(row), list(range(len(row)))

    def swap(a: int, b: int) -> None:
        arr[a], arr[b] = arr[b], arr[a]
        pos[a], pos[b] = pos[b], pos[a]

    lo, hi = 0, len(arr) - 1
    while hi > lo:
        if hi == lo + 1:
            if _gt_or_nan(arr[lo], arr[hi]):
                swap(lo, hi)
            break
        swap(lo + (hi - lo) // 2, lo + 1)   # pivot: the median of lo, middle and hi
        for a, b in ((lo + 1, hi), (lo, hi), (lo + 1, lo)):
            if _gt_or_nan(arr[a], arr[b]):
                swap(a, b)
        i, j, pivot = lo + 1, hi, arr[lo]
        while True:
            i += 1
            while _gt_or_nan(pivot, arr[i]):
                i += 1
            j -= 1
            while _gt_or_nan(arr[j], pivot):
                j -= 1
            if j < i:
                break
            swap(i, j)
        swap(lo, j)
        if j <= k:
            lo = i
        if j >= k:
            hi = j - 1
    return pos[k]


def _median_pick(row: np.ndarray) -> int:
    nans = np.flatnonzero(row != row)
    if nans.size:
        return int(nans[0])
    return int(np.argsort(row, kind="stable")[(row.size - 1) // 2])


def _mode_pick(row: np.ndarray) -> int:
    order = np.argsort(row, kind="stable")
    ordered = row[order]
    starts = np.flatnonzero(np.r_[True, ordered[1:] != ordered[:-1]])
    counts = np.diff(np.r_[starts, row.size])
    best = int(np.argmax(counts))         # the first of the most frequent: the smallest value
    return int(order[starts[best] + counts[best] - 1])


def _select(a: np.ndarray, dim: int, keepdim: bool, pick) -> tuple:
    """(values, (indices,)) with `pick(row) -> index` applied to each row along `dim`."""
    x = a.reshape(1) if a.ndim == 0 else a
    rows = np.moveaxis(x, dim, -1)
    idx = np.empty(rows.shape[:-1], dtype=np.int64)
    for at in np.ndindex(idx.shape):
        idx[at] = pick(rows[at])
    idx = np.expand_dims(idx, dim)
    vals = np.take_along_axis(x, idx, axis=dim)
    if a.ndim == 0:
        vals, idx = vals.reshape(()), idx.reshape(())
    elif not keepdim:
        vals, idx = vals.squeeze(dim), idx.squeeze(dim)
    return vals, (new_tensor(idx),)


class _Selecting(ValuesAndIndices):
    """Shared by kthvalue, median(dim) and mode: the gradient goes to the chosen index."""
    saves = ("dim", "indices", "keepdim", "self_sym_sizes")
    rule = "grad to the position each value was taken from"

    def backward(ctx, grad):
        from .elementwise import where
        sizes, dim = ctx.self_sym_sizes, ctx.dim
        if not sizes:
            return (grad,)
        idx = ctx.indices._data if ctx.keepdim else np.expand_dims(ctx.indices._data, dim)
        chosen = np.zeros(sizes, dtype=bool)
        np.put_along_axis(chosen, idx, True, axis=dim)
        g = grad if ctx.keepdim else grad.unsqueeze(dim)
        return (where(new_tensor(chosen), g.expand(sizes),
                      new_tensor(np.zeros((), grad._data.dtype))),)


class Kthvalue(_Selecting):
    """values, indices = the k-th smallest along dim"""
    grad_fn_name, name, returns = "KthvalueBackward0", "kthvalue", kthvalue_return

    def forward(self, k, dim, keepdim):
        return _select(self, dim, keepdim, lambda row: _quickselect(row.tolist(), k - 1))

    @classmethod
    def sample_inputs(cls, make, shape):
        if shape:
            yield make(shape), 1, 0, False
            yield make(shape), shape[-1], len(shape) - 1, True


class MedianDim(_Selecting):
    """values, indices = the lower median along dim (NaN if the row holds one)"""
    grad_fn_name, name, returns = "MedianBackward1", "median", median_return

    def forward(self, dim, keepdim):
        return _select(self, dim, keepdim, _median_pick)

    @classmethod
    def sample_inputs(cls, make, shape):
        if shape:
            yield make(shape), 0, False
            yield make(shape), len(shape) - 1, True


class Mode(_Selecting):
    """values, indices = the most frequent value along dim (the smallest on ties)"""
    grad_fn_name, name, returns = "ModeBackward0", "mode", mode_return

    def forward(self, dim, keepdim):
        return _select(self, dim, keepdim, _mode_pick)

    @classmethod
    def sample_inputs(cls, make, shape):
        if shape:
            yield make(shape), 0, False


class Median(Op):
    """out = the lower median of all elements (NaN if any is NaN)"""
    grad_fn_name, name = "MedianBackward0", "median"
    saves = ("result", "self")
    rule = "grad shared evenly by the elements equal to the median"

    def forward(self):
        flat = self.reshape(-1)
        if flat.size == 0 or (flat != flat).any():
            return as_array(np.array(np.nan, dtype=self.dtype))
        return as_array(np.sort(flat)[(flat.size - 1) // 2])

    def backward(ctx, grad):
        from .elementwise import where
        x, r = ctx.self._data, ctx.result._data
        mask = np.isnan(x) if np.isnan(r) else (x == r)    # PyTorch's evenly_distribute
        share = grad / int(mask.sum())
        return (where(new_tensor(mask), share, new_tensor(np.zeros((), grad._data.dtype))),)

    @classmethod
    def sample_inputs(cls, make, shape):
        yield (make(shape),)


# ---- public entry points ------------------------------------------------------------------
def _along(name: str, input: Tensor, dim: int) -> int:
    d = dim_of(dim, input.ndim)
    if input.ndim and input.shape[d] == 0:
        raise IndexError(f"{name}(): Expected reduction dim {int(d)} to have non-zero size.")
    return d


def _refuse_bool(name: str, input: Tensor) -> None:
    if input._data.dtype == np.bool_:
        raise NotImplementedError(f'"{name}_cpu" not implemented for \'Bool\'')


def kthvalue(input: Tensor, k: int, dim: int = -1, keepdim: bool = False):
    """The k-th smallest value along `dim` and its index (`torch.kthvalue`).

    Example:
        >>> import gradstep.engine as torch
        >>> torch.kthvalue(torch.tensor([3., 1., 2.]), 2).values
        tensor(2.)
    """
    d = dim_of(dim, input.ndim)
    size = input.shape[d] if input.ndim else 1
    if not 1 <= k <= size:
        raise RuntimeError(f"kthvalue(): selected number k out of range for dimension {int(d)}")
    return Kthvalue.apply(input, k, d, keepdim)


def median(input: Tensor, dim: int | None = None, keepdim: bool = False):
    """The lower median of all elements, or (values, indices) along `dim` (`torch.median`).

    Example:
        >>> import gradstep.engine as torch
        >>> torch.median(torch.tensor([4., 1., 3., 2.]))
        tensor(2.)
    """
    _refuse_bool("median", input)
    if dim is None:
        return Median.apply(input)
    return MedianDim.apply(input, _along("median", input, dim), keepdim)


def mode(input: Tensor, dim: int = -1, keepdim: bool = False):
    """The most frequent value along `dim` and its last index (`torch.mode`).

    Example:
        >>> import gradstep.engine as torch
        >>> torch.mode(torch.tensor([2., 1., 2.])).indices
        tensor(2)
    """
    return Mode.apply(input, _along("mode", input, dim), keepdim)
