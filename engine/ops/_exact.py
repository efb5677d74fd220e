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
# Its compiler fuses more than the explicit fmadd calls: `a + alpha * b` (add with alpha), the
# log_softmax backward's `g - exp(y) * sum` and the silu backward's `1 + x * (1 - s)` are each
# rounded once too (fma32). The reference bits were recorded with PyTorch's AVX-512 kernels
# (16-lane float32 vectors: ops/_sum_order.py VEC_LANES); `dev/sweep_bits.py` measures them.
#
# NOTE [tiny tensors through Python floats]
# A learner's tensor has a handful of elements, and there numpy's per-call cost (two casts,
# two fresh arrays) outweighs the arithmetic. Python floats are float64 and the math module
# calls the C library's double functions, so for 1-D float32 arrays of at most TINY elements
# the same float64 values are computed per element and rounded once to float32 by
# np.fromiter: 1.5 against 2.0 us for a 3-element sin on the shared benchmark machine.
# `1 - y * y` (one_minus_square) likewise: Python's float * and - are the same two IEEE double
# operations as numpy's float64 ones. Only where the float32 bits were shown to be the via64
# ones (tests/engine/test_exact.py samples them, dev/sweep_libm.py sweeps ranges):
# - sin, cos: numpy's float64 loops call the C library's sin and cos here (numpy 2.4, a CPU
#   without AVX-512), so even the float64 values agree (none differs in 4 million random
#   inputs); after rounding, every float32 in +-[2**-20, 2**20] agrees;
# - tanh: numpy has a float64 tanh of its own, one ulp away from the C library's in a
#   quarter of the values, but never after rounding to float32 (every float32 in +-[1e-9, 200]
#   agrees; outside that tanh(x) rounds to x or to +-1 in both). One difference, where the
#   new bits are PyTorch's: the C library's tanh of a nan is that nan (torch.signbit of
#   tanh(-nan) is True), numpy's float64 tanh, still used for larger, 0-d and 2-D arrays,
#   returns +nan for any nan.
# The math functions raise ValueError where numpy returns nan (sin(inf)); those inputs take
# the numpy route. exp, log & co. have their own float64 kernels in numpy and were not
# checked, so they keep via64.
"""
from __future__ import annotations

import math

import numpy as np

SMALL = 4096                 # elements: at most this many are evaluated the exact way
# elements: at most this many go through Python floats (the measured crossover with the
# numpy route is between 8 and 16 elements)
TINY = 8
F32 = np.dtype(np.float32)
# numpy ufunc -> the math function with the same float32 bits (NOTE [tiny tensors ...])
_SAME_BITS_IN_MATH = {np.sin: math.sin, np.cos: math.cos, np.tanh: math.tanh}


def via64(ufunc):
    """`ufunc` evaluated in float64 for small float32 arrays (see the NOTEs above)."""
    f64 = np.float64

    def run(x):
        if x.dtype == F32 and x.size <= SMALL:
            return ufunc(x, dtype=f64).astype(F32)
        return ufunc(x)

    scalar = _SAME_BITS_IN_MATH.get(ufunc)
    if scalar is None:
        return run
    fromiter = np.fromiter

    def tiny_first(x):
        if x.ndim == 1 and x.size <= TINY and x.dtype == F32:
            try:
                return fromiter(map(scalar, x.tolist()), F32, x.size)
            except ValueError:          # sin or cos of an infinity: numpy's nan instead
                pass
        return run(x)
    return tiny_first


def one_minus_square(y: np.ndarray) -> np.ndarray:
    """`1 - y * y` rounded once, as a fused multiply-add gives it, for small float32 arrays;
    a fresh array (callers may write into it)."""
    if y.dtype == F32 and y.size <= SMALL:
        if y.ndim == 1 and y.size <= TINY:
            # the same two float64 operations in Python floats (NOTE [tiny tensors ...])
            return np.fromiter([1.0 - v * v for v in y.tolist()], F32, y.size)
        t = y.astype(np.float64)
        np.multiply(t, t, out=t)            # out= keeps 0-d results arrays, not scalars
        # 1.0, not 1: the same float64 difference, without numpy's slower promotion of a
        # Python int (1.35 against 1.0 µs a call on a learner-sized array)
        return np.subtract(1.0, t, out=t).astype(F32)
    t = np.asarray(y * y)
    return np.subtract(1, t, out=t)


def fma32(a, b, c) -> np.ndarray:
    """a * b + c rounded once to float32 (float32 operands: the product is exact in float64,
    and the sum rounds twice only in rare ties), as a fused multiply-add gives it."""
    f64 = np.float64
    return (np.multiply(a, b, dtype=f64) + c).astype(F32)


# Sleef's single-precision exp (expf, 1-ulp), which PyTorch's vectorised softmax kernels call:
# q = rint(x / ln 2), a two-part reduction s = x - q ln 2, a degree-6 polynomial, times 2**q
_R_LN2 = np.float32(1.442695040888963407359924681001892137426645954152985934135449406931)
_L2U, _L2L = np.float32(-0.693145751953125), np.float32(-1.428606765330187045e-06)
_EXP_POLY = tuple(np.float32(c) for c in (
    0.00139304355252534151077271, 0.00833336077630519866943359, 0.0416664853692054748535156,
    0.166666671633720397949219, 0.5))


def sleef_expf(x: np.ndarray) -> np.ndarray:
    """exp of a float32 array with the bits of Sleef's vectorised expf, fused multiply-adds
    emulated in float64 (each product of two float32 values is exact there); PyTorch's
    softmax and log_softmax kernels call it on values <= 0, its sigmoid kernel on any value
    (0 below -104, inf above about 88.7, as Sleef gives)."""
    f64 = np.float64
    q = np.rint(x * _R_LN2).astype(f64)
    # x - q * ln2 in two parts; the first is exact (Cody-Waite), so one rounding for both
    s = (q * f64(_L2U) + x + q * f64(_L2L)).astype(F32)
    u = np.float32(0.000198527617612853646278381)
    for c in _EXP_POLY:
        u = (np.multiply(u, s, dtype=f64) + c).astype(F32)
    u = (np.multiply(s * s, u, dtype=f64) + s).astype(F32) + np.float32(1)
    out = np.asarray(np.ldexp(u, q.astype(np.int32)))
    out[x < -104] = 0
    return out
