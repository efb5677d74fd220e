"""`sum_to`: the one "unbroadcast" every binary backward goes through (HIPS `unbroadcast`).

Broadcasting in forward copies values along new or size-1 dimensions; the gradient of that
copy sums over the same dimensions, so `sum_to(grad, shape)` reduces `grad` back to `shape`.
"""
from __future__ import annotations

from .. import _events
from ..grad_mode import state as _grad_state
from ..tensor import new_tensor


def sum_to(grad, shape: tuple):
    """Sum Tensor `grad` over the dimensions broadcasting added or stretched to reach `shape`.

    Example:
        >>> import engine as torch
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
    if not _grad_state.enabled and (_events.listener is None or _grad_state.quiet):
        # a plain backward records nothing and reports nothing, so reduce in numpy directly:
        # the sum SumDim.forward computes, without two op dispatches per broadcast input
        a = grad._data
        if dims:    # gradients are floating, so numpy's sum keeps their dtype as SumDim's does
            a = a.sum(axis=tuple(dims), keepdims=True)
        return new_tensor(a.reshape(shape)) if a.shape != shape else new_tensor(a)
    if dims:
        grad = grad.sum(tuple(dims), keepdim=True)
    return grad.reshape(shape) if grad._data.shape != shape else grad
