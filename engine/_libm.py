"""The C library's double functions over arrays, for results whose bits must not depend on the CPU.

# NOTE [bits that depend on the CPU]
# numpy chooses its float64 exp, log, log1p, expm1 and power kernels at run time by the CPU's
# features. On a CPU with AVX-512 it runs vectorised kernels of its own whose last bit differs
# from the C library's in roughly one value in twenty (exp, power, expm1, log1p) or one in a
# thousand (log); on an AVX2-only CPU the same calls give the C library's bits. Where PyTorch
# computes with the C library too (its serial kernels: logspace's std::pow, the float64
# Box-Muller of randn/normal_, exponential_'s log1p), those numpy calls would make a golden
# case pass on one machine and fail on the next. Such places call `apply` instead.
# numpy's float64 sin and cos call the C library on both paths, and float32 results rounded
# from a float64 value only differ on the rare double rounding, so neither needs this.
# tests/engine/test_cpu_dispatch.py checks these functions against `math` and runs the
# full-precision golden cases once more with numpy's AVX-512 kernels switched off.
"""
from __future__ import annotations

import math
from collections.abc import Callable

import numpy as np

F64 = np.dtype(np.float64)


def apply(fn: Callable[..., float], *arrays: np.ndarray) -> np.ndarray:
    """`fn` (one of `math`'s functions) element by element over float64 arrays of one shape.

    Where `math` raises and C returns a value (an overflow's infinity, a domain error's nan,
    log(0)'s -inf), the value is numpy's for that element: every kernel agrees on those.

    Example:
        >>> apply(math.pow, np.array([2.0, -8.0]), np.array([0.5, 1 / 3])).tolist()
        [1.4142135623730951, nan]
    """
    arrays = tuple(np.asarray(a, dtype=F64) for a in arrays)
    shape = arrays[0].shape
    columns = [a.ravel().tolist() for a in arrays]
    try:
        out = np.fromiter(map(fn, *columns), F64, len(columns[0]))
    except (ValueError, OverflowError):
        out = np.fromiter((_one(fn, args) for args in zip(*columns)), F64, len(columns[0]))
    return out.reshape(shape)


_NUMPY_TWIN = {math.pow: np.power, math.exp: np.exp, math.log: np.log,
               math.log1p: np.log1p, math.expm1: np.expm1}


def _one(fn: Callable[..., float], args: tuple) -> float:
    try:
        return fn(*args)
    except (ValueError, OverflowError):
        with np.errstate(all="ignore"):
            return float(_NUMPY_TWIN[fn](*args))
