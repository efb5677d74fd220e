"""`sum_to`: the one "unbroadcast" every binary backward goes through (HIPS `unbroadcast`).

Broadcasting in forward copies values along new or size-1 dimensions; the gradient of that
copy sums over the same dimensions, so `sum_to(grad, shape)` reduces `grad` back to `shape`.
"""
from __future__ import annotations


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
    if dims:
        grad = grad.sum(tuple(dims), keepdim=True)
    return grad.reshape(shape) if grad._data.shape != shape else grad
