"""Distinct values and counts: `torch.unique`, `torch.bincount`, `torch.count_nonzero`.

PyTorch counterparts: `torch.unique` (ATen `_unique2` / `unique_dim`), `torch.bincount` and
`torch.count_nonzero` (int64 counts, no grad_fn).
Neither has a derivative: unique of a tensor that requires grad still records a node
(`Unique2Backward0`, `UniqueDimBackward0`) whose backward raises PyTorch's error.
"""
from __future__ import annotations

import numpy as np

from .. import _events
from ..grad_mode import state as _grad_state
from ..tensor import Tensor, new_tensor
from ._op import Op
from ._dims import distinct_dims
from .reduction import dims_of


class Unique2(Op):
    """out = the sorted distinct values of self (inverse indices and counts on request)"""
    grad_fn_name, name = "Unique2Backward0", "unique"
    rule = "not implemented (PyTorch raises)"
    derivative_orders = 0

    @classmethod
    def apply(cls, self, return_inverse=False, return_counts=False, dim=None):
        a = self._data
        if dim is None:
            values, inverse, counts = np.unique(a.reshape(-1), return_inverse=True,
                                                return_counts=True)
            inverse = inverse.reshape(a.shape)
        else:
            values, inverse, counts = np.unique(a, axis=dim, return_inverse=True,
                                                return_counts=True)
            inverse = inverse.reshape(-1)
        result = new_tensor(values.astype(a.dtype, copy=False))
        node = None
        if _grad_state.enabled and self._rg:
            node = cls._make_node((self,), result, (self,), None)
        if _events.listener is not None and not _grad_state.quiet:
            _events.listener.on_op(cls.name, (self,), result, node)
        extra = ([new_tensor(inverse.astype(np.int64))] if return_inverse else []) + \
                ([new_tensor(counts.astype(np.int64))] if return_counts else [])
        return (result, *extra) if extra else result

    def forward(self, *args):
        return np.unique(self)

    def backward(ctx, grad):
        raise RuntimeError("the derivative for '_unique2' is not implemented.")

    @classmethod
    def sample_inputs(cls, make, shape):
        yield (make(shape),)


class UniqueDim(Unique2):
    """out = the sorted distinct slices of self along dim"""
    grad_fn_name, name = "UniqueDimBackward0", "unique_dim"

    def backward(ctx, grad):
        raise RuntimeError("the derivative for 'unique_dim' is not implemented.")

    @classmethod
    def sample_inputs(cls, make, shape):
        if shape:
            yield make(shape), False, False, 0


def unique(input: Tensor, sorted: bool = True, return_inverse: bool = False,
           return_counts: bool = False, dim=None):
    """The distinct values of `input`, sorted (PyTorch's CPU kernel sorts even when asked not
    to), optionally with each element's index into them and each value's count.

    Example:
        >>> import gradstep.engine as torch
        >>> torch.unique(torch.tensor([3, 1, 3]), return_counts=True)
        (tensor([1, 3]), tensor([1, 2]))
    """
    if dim is None:
        return Unique2.apply(input, return_inverse, return_counts)
    return UniqueDim.apply(input, return_inverse, return_counts, dims_of(dim, input.ndim)[0])


def bincount(input: Tensor, weights: Tensor | None = None, minlength: int = 0) -> Tensor:
    """How often each value 0..max occurs in a 1-d non-negative integer tensor (summing
    `weights` instead of ones when given).

    Example:
        >>> import gradstep.engine as torch
        >>> torch.bincount(torch.tensor([0, 2, 2]))
        tensor([1, 0, 2])
    """
    a = input._data
    if a.dtype.kind == "f":
        name = {"float32": "Float", "float64": "Double", "float16": "Half"}[a.dtype.name]
        raise RuntimeError(f'"bincount_cpu" not implemented for \'{name}\'')
    if a.ndim != 1 or (a.size and a.min() < 0):
        raise RuntimeError("bincount only supports 1-d non-negative integral inputs.")
    if weights is None:
        return new_tensor(np.bincount(a, minlength=minlength).astype(np.int64))
    w = weights._data
    out_dtype = np.float64 if w.dtype == np.float64 else w.dtype
    counts = np.bincount(a, weights=w.astype(np.float64), minlength=minlength)
    return new_tensor(counts.astype(out_dtype))


def count_nonzero(input: Tensor, dim=None) -> Tensor:
    """The number of elements that are not zero (nan counts), in all of `input` or over `dim`
    (an int or a tuple of ints): an int64 tensor without a grad_fn (`torch.count_nonzero`).

    Example:
        >>> import gradstep.engine as torch
        >>> torch.count_nonzero(torch.tensor([[1.0, 0.0], [2.0, 3.0]]), dim=1)
        tensor([1, 2])
    """
    a = input._data
    axis = None if dim is None else distinct_dims(dims_of(dim, input.ndim))
    if a.ndim == 0 or axis == ():     # a 0-d tensor, or no dims given: count everything
        axis = None
    return new_tensor(np.asarray(np.count_nonzero(a, axis=axis), dtype=np.int64))


def histc(input: Tensor, bins: int = 100, min: float = 0, max: float = 0) -> Tensor:
    """Counts of `input`'s elements in `bins` equal-width bins over [min, max] (the data's own
    range when both are 0); values outside, and NaNs, are not counted.

    Example:
        >>> import gradstep.engine as torch
        >>> torch.histc(torch.tensor([1., 2., 1., 4.]), bins=3, min=0, max=3)
        tensor([0., 2., 1.])
    """
    from ..factories import _linspace_values
    a = input._data
    if a.dtype.kind != "f":
        raise NotImplementedError(f'"histogram_cpu" not implemented for '
                                  f"'{input.dtype.legacy[:-6]}'")
    if bins <= 0:
        raise RuntimeError(f"torch.histogram(): bins must be > 0, but got {bins} for "
                           "dimension 0")
    lo, hi = float(min), float(max)
    if lo == hi and a.size:
        lo, hi = float(a.min()), float(a.max())
    if lo == hi:
        lo, hi = lo - 1, hi + 1
    if not (np.isfinite(lo) and np.isfinite(hi)):
        raise RuntimeError(f"torch.histc: range of [{_cpp(lo)}, {_cpp(hi)}] is not finite")
    if not lo < hi:
        raise RuntimeError("torch.histc: max must be larger than min")
    # PyTorch bins by its own linspace edges in the input's dtype; the last bin is closed
    edges = _linspace_values(lo, hi, bins + 1, a.dtype)
    x = a.reshape(-1)
    x = x[(x >= edges[0]) & (x <= edges[-1])]
    pos = np.minimum(np.searchsorted(edges, x, side="right") - 1, bins - 1)
    return new_tensor(np.bincount(pos, minlength=bins).astype(a.dtype))


def _cpp(v: float) -> str:
    """A double as C++'s stream prints it; the NaN a reduction of the data makes on x86 has its
    sign bit set, so it prints as -nan."""
    return "-nan" if v != v else f"{v:g}"
