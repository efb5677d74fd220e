"""Writing whole slices at indices along a dim: index_copy, index_add and index_put with
accumulate (and their in-place forms).

PyTorch counterparts: `Tensor.index_copy` (IndexCopyBackward0), `Tensor.index_add`
(IndexAddBackward0) and `Tensor.index_put(indices, values, accumulate=True)`
(IndexPutBackward0). `index_copy(dim, index, source)` puts `source`'s slice i at slice
`index[i]` of `dim`; `index_add` adds `alpha` times it there instead. The gradient to `source`
reads the incoming gradient at `index`; the one to `self` is the gradient itself (adding) or the
gradient with the overwritten slices zeroed (copying). index_put without accumulate is the
`t[indices] = values` write of `indexing.py`.
"""
from __future__ import annotations

import numpy as np

from ..tensor import Tensor, new_tensor
from ._broadcast import sum_to
from ._dims import dim_of
from ._op import Op
from .indexing import Index, setitem
from .selection import IndexSelect


def _slices(ndim: int, dim: int, index: np.ndarray) -> tuple:
    """The numpy key naming the slices at `index` along `dim` of an ndim-d array."""
    return (slice(None),) * dim + (index,) if ndim else ()


def _source_part(source: np.ndarray, ndim: int) -> np.ndarray:
    """A 0-d source written into a 1-d tensor is one slice (PyTorch allows it)."""
    return source.reshape(1) if ndim == 1 and source.ndim == 0 else source


class IndexCopy(Op):
    """out = self, then out's slice index[i] along dim = source's slice i"""
    grad_fn_name, name, n_inputs = "IndexCopyBackward0", "index_copy", 2
    saves = ("dim", "index", "_source_sym_sizes")
    rule = "grad with the copied slices zeroed (to self); grad at index (to source)"

    def forward(self, source, dim, index):
        out = self.copy()
        out[_slices(self.ndim, dim, index._data)] = _source_part(source, self.ndim)
        return out

    def backward(ctx, grad):
        a, b = ctx.needs_input_grad
        ga = gb = None
        if a:
            written = np.zeros(grad._data.shape, dtype=bool)
            written[_slices(grad.ndim, ctx.dim, ctx.index._data)] = True
            ga = grad.masked_fill(new_tensor(written), 0.0)
        if b:
            gb = IndexSelect.apply(grad, ctx.dim, ctx.index).reshape(ctx._source_sym_sizes)
        return ga, gb

    @classmethod
    def sample_inputs(cls, make, shape):
        yield from _samples(make, shape)


class IndexAdd(Op):
    """out = self, then out's slice index[i] along dim += alpha * source's slice i"""
    grad_fn_name, name, n_inputs = "IndexAddBackward0", "index_add", 2
    saves = ("alpha", "dim", "index", "_source_sym_sizes")
    rule = "grad (to self); alpha * grad at index (to source)"

    def forward(self, source, dim, index, alpha):
        out = self.copy()
        part = _source_part(source, self.ndim)
        np.add.at(out, _slices(self.ndim, dim, index._data),
                  part if alpha == 1 else part * np.asarray(alpha, dtype=self.dtype))
        return out

    def backward(ctx, grad):
        a, b = ctx.needs_input_grad
        gb = None
        if b:
            gb = IndexSelect.apply(grad, ctx.dim, ctx.index).reshape(ctx._source_sym_sizes)
            gb = gb if ctx.alpha == 1 else gb * ctx.alpha
        return (grad if a else None), gb

    @classmethod
    def sample_inputs(cls, make, shape):
        for x, source, dim, index in _samples(make, shape):
            yield x, source, dim, index, 2.0


class IndexPutValues(Op):
    """out = self, then out[indices] = values, or += values with repeats adding up"""
    grad_fn_name, name, n_inputs = "IndexPutBackward0", "index_put", 2
    saves = ("accumulate", "indices", "_values_sym_sizes")
    rule = "grad, zeroed where overwritten (to self); grad at indices (to values)"

    def forward(self, values, accumulate, indices):
        out = self.copy()
        if accumulate:
            np.add.at(out, _key(indices), values)
        else:
            out[_key(indices)] = values
        return out

    def backward(ctx, grad):
        a, b = ctx.needs_input_grad
        ga = gb = None
        if a and not ctx.accumulate:
            written = np.zeros(grad._data.shape, dtype=bool)
            written[_key(ctx.indices)] = True
            ga = grad.masked_fill(new_tensor(written), 0.0)
        elif a:
            ga = grad
        if b:
            gb = sum_to(Index.apply(grad, _key(ctx.indices)), ctx._values_sym_sizes)
        return ga, gb

    @classmethod
    def sample_inputs(cls, make, shape):
        if shape:
            index = new_tensor(np.array([0, shape[0] - 1, 0]))
            yield make(shape), make((3,) + tuple(shape[1:])), True, (index,)
            index = new_tensor(np.array([shape[0] - 1]))
            yield make(shape), make((1,) + tuple(shape[1:])), False, (index,)


def _key(indices: tuple) -> tuple:
    return tuple(slice(None) if k is None else k._data for k in indices)


def _samples(make, shape):
    if shape:      # the last slice, then the first, of dim 0 (never one slice twice)
        index = new_tensor(np.unique([shape[0] - 1, 0])[::-1].copy())
        yield make(shape), make((len(index),) + tuple(shape[1:])), 0, index


# ---- argument checks, in PyTorch's words ----------------------------------------------------
def _scalar_type(t: Tensor) -> str:
    return t.dtype.legacy[:-len("Tensor")]      # FloatTensor -> Float


def _checked(name: str, self: Tensor, dim: int, index: Tensor, source: Tensor) -> int:
    d = dim_of(dim, self.ndim)
    if index.ndim > 1:
        raise IndexError(f"{name}(): Index is supposed to be a vector")
    if index._data.dtype != np.int64:
        raise RuntimeError(f"{name}(): Expected a long tensor for index, but got "
                           f"{_scalar_type(index)}")
    if source._data.dtype != self._data.dtype:
        raise RuntimeError(f"{name}(): self ({_scalar_type(self)}) and source "
                           f"({_scalar_type(source)}) must have the same scalar type")
    n, source_size = index.numel(), source.shape[d] if source.ndim else 1
    if source_size != n:
        raise IndexError(f"{name}(): Number of indices ({n}) should be equal to "
                         f"source.size(dim) ({source_size})")
    size = self.shape[d] if self.ndim else 1
    bad = (index._data < 0) | (index._data >= size)
    if bad.any():
        if name.startswith("index_add"):
            raise IndexError("index out of range in self")
        raise IndexError(f"{name}(): index {int(index._data[bad][0])} is out of bounds for "
                         f"dimension {d} with size {size}")
    return d


# ---- public entry points --------------------------------------------------------------------
def index_copy(input: Tensor, dim: int, index: Tensor, source: Tensor) -> Tensor:
    """`input` with `source`'s slices copied to the slices `index` names along `dim`.

    Example:
        >>> import gradstep.engine as torch
        >>> torch.zeros(3).index_copy(0, torch.tensor([2, 0]), torch.tensor([5., 6.]))
        tensor([6., 0., 5.])
    """
    d = _checked("index_copy", input, dim, index, source)
    return IndexCopy.apply(input, source, d, index)


def index_copy_(input: Tensor, dim: int, index: Tensor, source: Tensor) -> Tensor:
    """`index_copy` written into `input` (`Tensor.index_copy_`)."""
    from .inplace import apply_inplace
    d = _checked("index_copy_", input, dim, index, source)
    return apply_inplace(IndexCopy, "index_copy_", input, source, d, index)


def index_add(input: Tensor, dim: int, index: Tensor, source: Tensor, *,
              alpha=1) -> Tensor:
    """`input` with `alpha * source`'s slices added at the slices `index` names along `dim`.

    Example:
        >>> import gradstep.engine as torch
        >>> torch.zeros(3).index_add(0, torch.tensor([0, 0]), torch.tensor([1., 2.]))
        tensor([3., 0., 0.])
    """
    d = _checked("index_add", input, dim, index, source)
    return IndexAdd.apply(input, source, d, index, alpha)


def index_add_(input: Tensor, dim: int, index: Tensor, source: Tensor, *,
               alpha=1) -> Tensor:
    """`index_add` written into `input` (`Tensor.index_add_`)."""
    from .inplace import apply_inplace
    d = _checked("index_add_", input, dim, index, source)
    return apply_inplace(IndexAdd, "index_add_", input, source, d, index, alpha)


def _indices(indices) -> tuple:
    if not isinstance(indices, (tuple, list)):
        raise TypeError(f"index_put(): argument 'indices' must be tuple of Tensors, not "
                        f"{type(indices).__name__}")
    return tuple(indices)


def index_put_(input: Tensor, indices, values: Tensor, accumulate: bool = False) -> Tensor:
    """`input[indices] = values` (or `+=` with repeats adding up when `accumulate`), in place.

    Example:
        >>> import gradstep.engine as torch
        >>> torch.zeros(3).index_put_((torch.tensor([0, 0]),), torch.tensor(1.), True)
        tensor([2., 0., 0.])
    """
    indices = _indices(indices)
    if not accumulate:      # the write `input[indices] = values` makes
        setitem(input, indices, values)
        return input
    from .inplace import apply_inplace
    return apply_inplace(IndexPutValues, "index_put_", input, values, True, indices)


def index_put(input: Tensor, indices, values: Tensor, accumulate: bool = False) -> Tensor:
    """`index_put_` on a copy of `input`."""
    return IndexPutValues.apply(input, values, bool(accumulate), _indices(indices))
