"""`sum_to`: the one "unbroadcast" every binary backward goes through (HIPS `unbroadcast`).

Broadcasting in forward copies values along new or size-1 dimensions; the gradient of that
copy sums over the same dimensions, so `sum_to(grad, shape)` reduces `grad` back to `shape`.
"""
from __future__ import annotations

from sys import getrefcount

import numpy as np

from .. import _events
from . import _sum_order
from ..grad_mode import state as _grad_state
from ..tensor import Tensor, new_tensor

_reduce = np.add.reduce
_DIM_SUM_MAX = _sum_order.SMALL


def records_nothing() -> bool:
    """Whether ops run now record no graph and report no event: a plain backward (no
    create_graph, no listener or a quiet one). Backwards may then compute in numpy directly."""
    return not _grad_state.enabled and (_events.listener is None or _grad_state.quiet)


def sum_to(grad, shape: tuple):
    """Sum Tensor `grad` over the dimensions broadcasting added or stretched to reach `shape`.

    Example:
        >>> import gradstep.engine as torch
        >>> sum_to(torch.ones(2, 3), (3,)).tolist()
        [2.0, 2.0, 2.0]
        >>> sum_to(torch.ones(2, 3), (2, 1)).tolist()
        [[3.0], [3.0]]
    """
    gshape = grad._data.shape
    if gshape == shape:
        return grad
    lead = len(gshape) - len(shape)
    dims = list(range(lead))
    for i, n in enumerate(shape):
        if n == 1 and gshape[lead + i] != 1:
            dims.append(lead + i)
    if records_nothing():
        # a plain backward records nothing and reports nothing, so reduce in numpy directly:
        # the sum SumDim.forward computes, without two op dispatches per broadcast input
        a = grad._data
        if dims and shape.count(1) == len(shape) and _sum_order.applies(a):
            a = _sum_order.cascade_sum(a)   # to a single number: PyTorch's order of additions
        elif dims:  # gradients are floating, so numpy's sum keeps their dtype as SumDim's does
            # PyTorch's order, as SumDim's (dim_sum gives None for larger arrays: not asked)
            out = _sum_order.dim_sum(a, tuple(dims), True) if a.size <= _DIM_SUM_MAX else None
            # (np.add.reduce is what ndarray.sum runs, without its Python wrapper)
            a = _reduce(a, axis=tuple(dims), keepdims=True) if out is None else out
        return new_tensor(a.reshape(shape)) if a.shape != shape else new_tensor(a)
    if not shape:       # PyTorch's sum_to: a 0-d target is tensor.sum() (SumBackward0)
        return grad.sum()
    if dims:
        grad = grad.sum(tuple(dims), keepdim=True)
    return grad.reshape(shape) if grad._data.shape != shape else grad


# NOTE [gradient layout contract]
# PyTorch stores a leaf's first gradient with the leaf's own strides when the leaf is dense
# (else contiguous): a contiguous weight gets a contiguous `.grad` even though `x @ w.t()`
# hands back a transposed one. AccumulateGrad keeps ("steals") an incoming gradient that already
# has that layout when nothing else holds it, and copies it into that layout otherwise. The
# engine does the same (engine/autograd/walk.py `accumulate_grad`, through `first_grad`),
# judging "nothing else holds it" by reference counts, as PyTorch does by use_count().
def _dense(a: np.ndarray) -> bool:
    """No gaps and no overlaps: a permutation of a contiguous layout."""
    if a.flags.c_contiguous or a.flags.f_contiguous:
        return True
    step = a.itemsize
    for stride, n in sorted((s, n) for s, n in zip(a.strides, a.shape) if n != 1):
        if stride != step:
            return False
        step *= n
    return True


def obeys_layout(grad: np.ndarray, like: np.ndarray) -> bool:
    """Whether `grad` is laid out as a gradient of `like` must be (see the NOTE above)."""
    if not _dense(like):
        return grad.flags.c_contiguous
    # equal strides (the usual case: a weight's gradient) decide it without the generator
    return grad.strides == like.strides or all(
        s == t for s, t, n in zip(grad.strides, like.strides, like.shape) if n != 1)


def empty_like_layout(like: np.ndarray) -> np.ndarray:
    """An uninitialised gradient buffer for `like`, with the layout the contract asks for."""
    return np.empty_like(like) if _dense(like) else np.empty(like.shape, like.dtype)


def first_grad(like: np.ndarray, grad, may_take: bool) -> np.ndarray:
    """The array a leaf's first `.grad` holds: `grad`'s own array when nothing but the backward
    walk holds it and it has the contract's layout, else a copy in that layout.

    `may_take` says the caller's one reference to `grad` is the walk's buffer list (PyTorch's
    num_expected_refs); a large array is then kept if no other Tensor, name or view reaches
    its memory. Small ones are copied: the checks would cost more than the copy.
    """
    a = grad._data
    if (may_take and a.size >= _TAKE_MIN and getrefcount(grad) == _GRAD_REFS
            and not grad._rg and a.flags.writeable and obeys_layout(a, like)):
        base, x = a.base, grad._x
        # holders of `base`: a.base, `base`, getrefcount's argument, and for a view Tensor
        # (a weight's gradient comes through t() as one) the view its root Tensor holds
        if x is None:
            holders = 3
        elif len(x) == 2 and x.get("base") is None and _lone_root(x.get("view_of"), base):
            holders = 4
        else:
            holders = 0
        # holders of `a`: grad._data, `a`, getrefcount's argument
        if holders and getrefcount(a) == 3 and (base is None and holders == 3 or (
                type(base) is np.ndarray and base.base is None
                and getrefcount(base) == holders)):
            return a
    if like.flags.c_contiguous:
        return np.array(a, order="C")
    out = empty_like_layout(like)
    np.copyto(out, a)
    return out


def _lone_root(root, base) -> bool:
    """Whether `root`, the Tensor a walk-held gradient is a view of, is reachable only through
    that view's link to it (so it dies with the view) and holds nothing but a view of `base`."""
    # holders of root: the view's dict, this parameter, getrefcount's argument; of its array:
    # root._data and the argument
    return (type(root) is Tensor and base is not None and root._x is None and not root._rg
            and root.grad_fn is None and getrefcount(root) == 3
            and root._data.base is base and getrefcount(root._data) == 2)


# a gradient smaller than this is copied without the ownership checks (as accumulate_grad
# does inline for a contiguous leaf)
_TAKE_MIN = 4096
# references to a walk-held gradient inside first_grad: the walk's buffer list,
# accumulate_grad's name, this function's parameter and getrefcount's argument
_GRAD_REFS = 4
