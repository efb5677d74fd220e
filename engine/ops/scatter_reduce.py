"""`torch.scatter_reduce` / `Tensor.scatter_reduce(_)`: combining src into self at index along
dim with sum, prod, mean, amax or amin.

PyTorch counterpart: `scatter_reduce.two` (`ScatterReduceBackward0`, saving dim, include_self,
index, reduce, self, src and result). Every position of `index` sends its `src` element to
`out[..., index[i], ...]`; with include_self=False the positions that receive something start
from the reduction's identity instead of self's value (and a mean does not count self). Values
are combined in index order, as PyTorch's CPU loop does; an integer mean rounds down. PyTorch
also takes "max" and "min" forward, though its backward then refuses them.

The backward is PyTorch's formula written in engine ops: sum passes grad through; mean divides
it by each position's count; prod multiplies by the result over the input (with zeros handled
by recomputing without them); amax/amin share grad evenly among every element that reached the
extreme. Positions written with include_self=False get no gradient for self.
"""
from __future__ import annotations

import numpy as np

from ..tensor import Tensor, new_tensor
from ._dims import dim_of
from ._op import Op
from .scatter import _check, scatter_key, src_part

_REDUCES = ("sum", "prod", "mean", "amax", "amin", "max", "min")
_AT = {"sum": np.add, "mean": np.add, "prod": np.multiply, "amax": np.maximum,
       "max": np.maximum, "amin": np.minimum, "min": np.minimum}


def _identity(reduce: str, dtype: np.dtype):
    """The value a position starts from when include_self=False."""
    if reduce in ("sum", "mean"):
        return 0
    if reduce == "prod":
        return 1
    big = np.inf if dtype.kind == "f" else np.iinfo(dtype).max
    return -big if reduce in ("amax", "max") else big


def _reduced(out: np.ndarray, src: np.ndarray, dim: int, index: np.ndarray, reduce: str,
             include_self: bool) -> np.ndarray:
    shape = out.shape
    if index.size == 0:
        return out.copy()
    out, key, index = scatter_key(out, dim, index)
    src = src_part(src, index) if src.ndim else src.reshape(1)
    if not include_self:
        out[key] = _identity(reduce, out.dtype)
    _AT[reduce].at(out, key, src)     # in index order, one element at a time
    if reduce == "mean":
        count = np.full(out.shape, 1 if include_self else 0, dtype=out.dtype)
        np.add.at(count, key, 1)
        count[count == 0] = 1
        out = out // count if out.dtype.kind in "iub" else out / count
    return out.reshape(shape)


class ScatterReduceTwo(Op):
    """out = self with src combined in at index along dim (sum, prod, mean, amax, amin)"""
    grad_fn_name, name, n_inputs = "ScatterReduceBackward0", "scatter_reduce", 2
    saves = ("dim", "include_self", "index", "reduce", "result", "self", "src")
    rule = "grad through sum, / count for mean, * result / input for prod, to the extremes"

    def forward(self, src, dim, index, reduce, include_self=True):
        return _reduced(self, src, dim, index._data, reduce, include_self)

    def backward(ctx, grad):
        grad_self, grad_src = _grads(ctx, grad)
        if not ctx.include_self:
            grad_self = grad_self.scatter(ctx.dim, ctx.index, 0)
        a, b = ctx.needs_input_grad
        return (grad_self if a else None, grad_src if b else None)

    @classmethod
    def sample_inputs(cls, make, shape):
        if shape:     # two writes per target position, away from ties
            index = new_tensor((np.indices(shape).sum(0) % shape[0]).astype(np.int64))
            for reduce in ("sum", "mean", "prod"):
                yield make(shape, 0.5, 2.0), make(shape, 0.5, 2.0), 0, index, reduce, True
            yield make(shape), make(shape), 0, index, "mean", False


def _grads(ctx, grad) -> tuple:
    dim, index, src, self, reduce = ctx.dim, ctx.index, ctx.src, ctx.self, ctx.reduce
    if reduce == "sum":
        return grad, grad.gather(dim, index)
    if reduce == "mean":
        count = (grad.new_ones(grad.shape) if ctx.include_self else grad.new_zeros(grad.shape))
        count = count.scatter_add(dim, index, src.new_ones(src.shape))
        count = count.masked_fill(count == 0, 1)
        return grad / count, grad.gather(dim, index) / count.gather(dim, index)
    if reduce == "prod":
        return _prod_grads(ctx, grad)
    if reduce in ("amax", "amin"):
        result = ctx.result
        value = result.gather(dim, index)
        at_self, at_src = self == result, src == value
        share = grad / at_self.to(self.dtype).scatter_add(dim, index, at_src.to(self.dtype))
        return at_self * share, at_src * share.gather(dim, index)
    raise RuntimeError("Expected 'reduce' to be one of 'sum', 'prod', 'mean', 'amax', 'amin' "
                       f"but got {reduce}.")


def _prod_grads(ctx, grad) -> tuple:
    """The product's gradients without dividing by a zero: self's from the product with its
    zeros taken as ones, a lone zero src's from the product recomputed without it."""
    dim, index, src, self = ctx.dim, ctx.index, ctx.src, ctx.self
    apply = ScatterReduceTwo.apply
    kept = self.masked_fill(self == 0, 1)
    grad_self = grad * apply(kept, src, dim, index, "prod", ctx.include_self) / kept
    src_zero = src == 0
    zeros_there = self.new_zeros(self.shape).scatter_add(dim, index, src_zero.to(self.dtype))
    lone = src_zero & (zeros_there.gather(dim, index) == 1)
    without = apply(self, src.masked_fill(lone, 1), dim, index, "prod", ctx.include_self)
    grad_src = (grad * without).gather(dim, index).where(
        lone, (grad * ctx.result).gather(dim, index) / src.masked_fill(src_zero, 1))
    return grad_self, grad_src


def _prepared(input: Tensor, dim, index: Tensor, src: Tensor, reduce: str) -> int:
    d = dim_of(dim, input.ndim)
    _check(input, d, index, src)
    if reduce not in _REDUCES:
        raise RuntimeError("reduce argument must be either sum, prod, mean, amax or amin, got "
                           f"{reduce}")
    return d


def scatter_reduce(input: Tensor, dim: int, index: Tensor, src: Tensor, reduce: str, *,
                   include_self: bool = True) -> Tensor:
    """`input` with `src` combined in at `index` along `dim` by `reduce`.

    Example:
        >>> import gradstep.engine as torch
        >>> torch.zeros(3).scatter_reduce(0, torch.tensor([0, 0, 2]),
        ...                               torch.tensor([1., 3., 5.]), "mean")
        tensor([1.3333, 0.0000, 5.0000])
    """
    d = _prepared(input, dim, index, src, reduce)
    return ScatterReduceTwo.apply(input, src, d, index, reduce, bool(include_self))


def scatter_reduce_(input: Tensor, dim: int, index: Tensor, src: Tensor, reduce: str, *,
                    include_self: bool = True) -> Tensor:
    """`scatter_reduce` written into `input` (`Tensor.scatter_reduce_`)."""
    from .inplace import apply_inplace
    d = _prepared(input, dim, index, src, reduce)
    return apply_inplace(ScatterReduceTwo, "scatter_reduce_", input, src, d, index, reduce,
                         bool(include_self))
