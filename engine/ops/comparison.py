"""Comparisons and logic: `== != < <= > >=`, `& | ^ ~`, `//`, `%`, isnan ... (never differentiable).

PyTorch counterparts: `torch.eq`, `torch.logical_and`, `torch.floor_divide`, `torch.remainder`,
`torch.isnan`. Results are bool (or integer) tensors without a grad_fn.
"""
from __future__ import annotations

import numpy as np

from ..tensor import Tensor, batched_uids, new_tensor
from .arithmetic import _pair
from .complex import refuse
from .rounding import floor_divide, remainder  # noqa: F401  (torch names kept here too)

_plain = new_tensor

def _compare(fn, a, b, kernel: str = "") -> Tensor:
    a, b = _pair(a, b)
    if kernel and "c" in (a._data.dtype.kind, b._data.dtype.kind):
        # complex numbers have no order: PyTorch has no such kernel for them
        refuse(kernel, a if a._data.dtype.kind == "c" else b)
    try:
        out = _plain(fn(a._data, b._data))
        if batched_uids and (a._uid in batched_uids or b._uid in batched_uids):
            batched_uids.add(out._uid)      # inside vmap: `if x > 0` refuses (batching.py)
        return out
    except ValueError:
        from ..messages import size_mismatch
        raise RuntimeError(size_mismatch(a._data.shape, b._data.shape)) from None


def eq(a, b) -> Tensor:
    return _compare(np.equal, a, b)


def ne(a, b) -> Tensor:
    return _compare(np.not_equal, a, b)


def lt(a, b) -> Tensor:
    return _compare(np.less, a, b, "lt_cpu")


def le(a, b) -> Tensor:
    return _compare(np.less_equal, a, b, "le_cpu")


def gt(a, b) -> Tensor:
    return _compare(np.greater, a, b, "gt_cpu")


def ge(a, b) -> Tensor:
    return _compare(np.greater_equal, a, b, "ge_cpu")


def logical_and(a, b) -> Tensor:
    return _compare(np.logical_and, a, b)


def logical_or(a, b) -> Tensor:
    return _compare(np.logical_or, a, b)


def bitwise_and(a, b) -> Tensor:
    return _compare(np.bitwise_and, a, b)


def bitwise_or(a, b) -> Tensor:
    return _compare(np.bitwise_or, a, b)


def bitwise_xor(a, b) -> Tensor:
    return _compare(np.bitwise_xor, a, b)


def logical_not(a) -> Tensor:
    return _plain(np.logical_not(a._data))


def bitwise_not(a) -> Tensor:
    return _plain(np.invert(a._data))


def isnan(a) -> Tensor:
    return _plain(np.isnan(a._data))


def isinf(a) -> Tensor:
    return _plain(np.isinf(a._data))


def isfinite(a) -> Tensor:
    return _plain(np.isfinite(a._data))
