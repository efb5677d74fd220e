"""Float32 results with PyTorch's bits, where numpy's float32 kernels round differently.

# NOTE [float32 transcendentals]
# numpy's float32 exp/tanh/sin/... are often one ulp away from PyTorch's (40% of exp values
# differ), which shows as soon as a learner prints `.item()`. Evaluating in float64 and rounding
# once to float32 matches PyTorch for ~99% of values (PyTorch's vectorised kernels are not
# always correctly rounded: cos(1.0) is one such value). That costs two casts, so it is done
# for learner-sized tensors only; large tensors (benchmarks) keep numpy's float32 kernels.
#
# The same applies to PyTorch's fused kernels: where its C++ evaluates `1 - y * y` as one
# fused multiply-add (tanh_backward), the product of two float32 values is exact in float64,
# so computing there and rounding once gives its bits (checked on 100,000 random values).
"""
from __future__ import annotations

import numpy as np

SMALL = 4096                 # elements: at most this many are evaluated the exact way
F32 = np.dtype(np.float32)


def via64(ufunc):
    """`ufunc` evaluated in float64 for small float32 arrays (see the NOTE above)."""
    f64 = np.float64

    def run(x):
        if x.dtype == F32 and x.size <= SMALL:
            return ufunc(x, dtype=f64).astype(F32)
        return ufunc(x)
    return run


def one_minus_square(y: np.ndarray) -> np.ndarray:
    """`1 - y * y` rounded once, as a fused multiply-add gives it, for small float32 arrays;
    a fresh array (callers may write into it)."""
    if y.dtype == F32 and y.size <= SMALL:
        t = y.astype(np.float64)
        np.multiply(t, t, out=t)            # out= keeps 0-d results arrays, not scalars
        return np.subtract(1, t, out=t).astype(F32)
    t = np.asarray(y * y)
    return np.subtract(1, t, out=t)
