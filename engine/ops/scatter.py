"""Writing values at indices along a dim: scatter and scatter_add (and their in-place forms).

PyTorch counterparts: `torch.scatter` (a tensor `src`, ScatterBackward0, or a number `value`,
ScatterBackward1; `reduce="add"|"multiply"` has no derivative) and `torch.scatter_add`
(ScatterAddBackward0). For each position of `index`, `out[..., index[i], ...] = src[i]` along
`dim`. The backward to `src` gathers the gradient at `index`; the one to `self` is the gradient
with the overwritten positions zeroed (scatter) or the gradient itself (scatter_add).
gather's own backward, which adds into zeros, is `selection.ScatterAdd`.
"""
from __future__ import annotations

import numpy as np

from .. import messages
from ..tensor import Tensor, new_tensor
from ._dims import dim_of
from ._op import NotImplementedNode, Op
from .selection import Gather


def scatter_key(out: np.ndarray, dim: int, index: np.ndarray) -> tuple:
    """(a copy of `out` as at least 1-d, the fancy index naming, for every position of `index`,
    the element of `out` it sends to along `dim`, `index` as at least 1-d). A 0-d index or
    tensor counts as one element along one dim, as in PyTorch. Shared by scatter_reduce."""
    index, out = index.reshape(index.shape or 1), out.reshape(out.shape or 1).copy()
    grid = list(np.indices(index.shape, sparse=True))
    grid[dim] = index
    return out, tuple(grid), index


def src_part(src: np.ndarray, index: np.ndarray) -> np.ndarray:
    """The part of `src` an (at least 1-d) `index` reads: its leading corner of index's shape."""
    return src[tuple(slice(0, n) for n in index.shape)] if src.ndim else src


def _written(out: np.ndarray, dim: int, index: np.ndarray, src, reduce=None) -> np.ndarray:
    """A copy of `out` with `src` (an array at least index's size, or a number) written at
    `index` along `dim`; `reduce` "add" or "multiply" combines instead of overwriting."""
    shape = out.shape
    if index.size == 0:
        return out.copy()
    out, key, index = scatter_key(out, dim, index)
    if isinstance(src, np.ndarray):
        src = src_part(src, index)
    src = np.asarray(src).astype(out.dtype, copy=False)
    if reduce is None:
        out[key] = src
    else:
        (np.add if reduce == "add" else np.multiply).at(out, key, src)
    return out.reshape(shape)


class Scatter(Op):
    """out = self, then out[index[i]] = src[i] along dim"""
    grad_fn_name, name, n_inputs = "ScatterBackward0", "scatter", 2
    saves = ("dim", "index", "_src_sym_sizes")
    rule = "grad with the written positions zeroed; grad gathered at index for src"

    def forward(self, src, dim, index):
        return _written(self, dim, index._data, src)

    def backward(ctx, grad):
        a, b = ctx.needs_input_grad
        return (ScatterValue.apply(grad, ctx.dim, ctx.index, 0) if a else None,
                _gathered(ctx, grad) if b else None)

    @classmethod
    def sample_inputs(cls, make, shape):
        yield from _samples(make, shape)


def _gathered(ctx, grad) -> Tensor:
    """src's gradient: grad gathered at index. It has index's shape, so an index smaller than
    src makes PyTorch's check of the gradient's shape refuse it, naming the node."""
    index = ctx.index
    if tuple(index.shape) != tuple(ctx._src_sym_sizes) and index.numel():
        raise RuntimeError(f"Function {type(ctx).__name__} returned an invalid gradient at "
                           f"index 1 - got {list(index.shape)} but expected shape compatible "
                           f"with {list(ctx._src_sym_sizes)}")
    return Gather.apply(grad, ctx.dim, index, False)


class ScatterValue(Op):
    """out = self, then out[index[i]] = value along dim"""
    grad_fn_name, name = "ScatterBackward1", "scatter"
    saves = ("dim", "index")
    rule = "grad with the written positions zeroed"

    def forward(self, dim, index, value):
        return _written(self, dim, index._data, value)

    def backward(ctx, grad):
        return (ScatterValue.apply(grad, ctx.dim, ctx.index, 0),)

    @classmethod
    def sample_inputs(cls, make, shape):
        for x, _, dim, index in _samples(make, shape):
            yield x, dim, index, 0.5


class ScatterAddInto(Op):
    """out = self, then out[index[i]] += src[i] along dim"""
    grad_fn_name, name, n_inputs = "ScatterAddBackward0", "scatter_add", 2
    saves = ("dim", "index", "_src_sym_sizes")
    rule = "grad for self; grad gathered at index for src"

    def forward(self, src, dim, index):
        return _written(self, dim, index._data, src, "add")

    def backward(ctx, grad):
        a, b = ctx.needs_input_grad
        return (grad if a else None, _gathered(ctx, grad) if b else None)

    @classmethod
    def sample_inputs(cls, make, shape):
        yield from _samples(make, shape)


class ScatterReduce(Op):
    """out = self, then out[index[i]] (+ or *)= src[i] along dim (no derivative in PyTorch)"""
    grad_fn_name, name, n_inputs = "NotImplemented", "scatter", 2
    node_base = NotImplementedNode
    rule = "not implemented (PyTorch raises)"
    derivative_orders = 0

    def forward(self, src, dim, index, reduce):
        return _written(self, dim, index._data, src, reduce)

    def backward(ctx, grad):
        raise RuntimeError("derivative for aten::scatter is not implemented")

    @classmethod
    def sample_inputs(cls, make, shape):
        for x, src, dim, index in _samples(make, shape):
            yield x, src, dim, index, "add"


class ScatterValueReduce(ScatterReduce):
    """out = self, then out[index[i]] (+ or *)= value along dim (no derivative in PyTorch)"""
    n_inputs = 1

    def forward(self, dim, index, value, reduce):
        return _written(self, dim, index._data, value, reduce)

    @classmethod
    def sample_inputs(cls, make, shape):
        for x, _, dim, index in _samples(make, shape):
            yield x, dim, index, 2.0, "multiply"


def _samples(make, shape):
    if shape:     # every row of dim 0 written once per column, so no two writes collide
        index = new_tensor((np.indices(shape).sum(0) % shape[0]).astype(np.int64))
        yield make(shape), make(shape), 0, index


# ---- argument checks, in the order PyTorch makes them --------------------------------------
def _size(t: Tensor, d: int) -> int:
    """t's size at d, 1 for a 0-d tensor (PyTorch's ensure_nonempty_size)."""
    return t.shape[dim_of(d, t.ndim)] if t.ndim else 1


def _check(self: Tensor, dim: int, index: Tensor, src: Tensor | None) -> None:
    if index.numel() and index._data.dtype not in (np.int32, np.int64):
        raise RuntimeError("scatter(): Expected dtype int32/int64 for index")
    if src is not None and src._data.dtype != self._data.dtype:
        raise RuntimeError("scatter(): Expected self.dtype to be equal to src.dtype")
    if not index.numel():
        return
    ndim = max(self.ndim, 1)
    if ndim != max(index.ndim, 1):
        raise RuntimeError("Index tensor must have the same number of dimensions as self tensor")
    wrong = any(d != dim and _size(index, d) > _size(self, d) for d in range(ndim))
    if not wrong and src is not None:
        wrong = any(_size(index, d) > _size(src, d) for d in range(ndim))
    if src is not None and max(src.ndim, 1) != max(index.ndim, 1):
        raise RuntimeError("Index tensor must have the same number of dimensions as src tensor")
    if wrong:
        text = (f"Expected index {list(index.shape)} to be no larger than self "
                f"{list(self.shape)} apart from dimension {dim}")
        if src is not None:
            text += f" and to be no larger size than src {list(src.shape)}"
        raise RuntimeError(text)
    size = _size(self, dim)
    bad = (index._data < 0) | (index._data >= size)
    if bad.any():
        raise RuntimeError(f"index {int(index._data[bad].flat[0])} is out of bounds for "
                           f"dimension {int(dim)} with size {size}")


def _reduce_arg(reduce: str, tensor_src: bool) -> str:
    if tensor_src:
        messages.warn_once("The reduce argument of torch.scatter with Tensor src is deprecated and "
                      "will be removed in a future PyTorch release. Use torch.scatter_reduce "
                      "instead for more reduction options.")
    if reduce not in ("add", "multiply"):
        raise RuntimeError("reduce argument must be either add or multiply.")
    return reduce


def _prepared(input, dim, index, src, value, reduce) -> tuple:
    """(op class, the arguments after input) for scatter/scatter_ with these arguments."""
    d = dim_of(dim, input.ndim)
    tensor_src = isinstance(src, Tensor)
    if src is not None and not tensor_src:
        src, value = None, src            # scatter(dim, index, 2.0): the value overload
    _check(input, d, index, src if tensor_src else None)
    if reduce is not None:
        reduce = _reduce_arg(reduce, tensor_src)
        if tensor_src:
            return ScatterReduce, (src, d, index, reduce)
        return ScatterValueReduce, (d, index, value, reduce)
    if tensor_src:
        return Scatter, (src, d, index)
    return ScatterValue, (d, index, value)


# ---- public entry points ------------------------------------------------------------------
def scatter(input: Tensor, dim: int, index: Tensor, src=None, *, value=None,
            reduce: str | None = None) -> Tensor:
    """`input` with `src` (a tensor or a number) written at `index` along `dim`.

    Example:
        >>> import gradstep.engine as torch
        >>> torch.zeros(3).scatter(0, torch.tensor([0, 2]), torch.tensor([1., 2.]))
        tensor([1., 0., 2.])
    """
    op, args = _prepared(input, dim, index, src, value, reduce)
    return op.apply(input, *args)


def scatter_(input: Tensor, dim: int, index: Tensor, src=None, *, value=None,
             reduce: str | None = None) -> Tensor:
    """`scatter` written into `input` (`Tensor.scatter_`)."""
    from .inplace import apply_inplace
    op, args = _prepared(input, dim, index, src, value, reduce)
    return apply_inplace(op, "scatter_", input, *args)


def scatter_add(input: Tensor, dim: int, index: Tensor, src: Tensor) -> Tensor:
    """`input` with `src` added at `index` along `dim`; repeated indices accumulate.

    Example:
        >>> import gradstep.engine as torch
        >>> torch.zeros(3).scatter_add(0, torch.tensor([0, 0]), torch.tensor([1., 2.]))
        tensor([3., 0., 0.])
    """
    d = dim_of(dim, input.ndim)
    _check(input, d, index, src)
    return ScatterAddInto.apply(input, src, d, index)


def scatter_add_(input: Tensor, dim: int, index: Tensor, src: Tensor) -> Tensor:
    """`scatter_add` written into `input` (`Tensor.scatter_add_`)."""
    from .inplace import apply_inplace
    d = dim_of(dim, input.ndim)
    _check(input, d, index, src)
    return apply_inplace(ScatterAddInto, "scatter_add_", input, src, d, index)
