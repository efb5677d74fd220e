"""2-norms in PyTorch's order of roundings (its CPU `norm` kernel), for last-bit agreement.

PyTorch (CPU) computes the 2-norm of each contiguous row (a full reduction, or one over the
trailing dims) with vectors of 8 float32 (4 float64) lanes: every lane adds its rounded square
x*x one vector after another; the lanes are then added left to right; the leftover elements
(fewer than a vector) follow: for float32 the first four of them (when there are four or more)
as rounded squares added one by one, the rest each with a fused multiply-add s + x*x, as are
all float64 leftovers; the square root of that sum is the norm. Other 2-norms (over leading
dims, or of strided rows) add the rounded squares one after another.
Beyond MAX_SERIAL elements PyTorch splits the work over threads: numpy's order is kept there.

Example:
    >>> import numpy as np
    >>> float(norm2(np.array([3.0, 4.0], np.float32), None, False))
    5.0
"""
from __future__ import annotations

import math
from fractions import Fraction

import numpy as np

MAX_SERIAL = 32768


def fma(x: np.ndarray, s: np.ndarray) -> np.ndarray:
    """s + x*x rounded once (a fused multiply-add), elementwise, in x's dtype (float32/64)."""
    if x.dtype == np.float32:
        return _fma32(x, s)
    out = np.empty(np.broadcast(x, s).shape, np.float64)
    flat_x, flat_s = np.broadcast_to(x, out.shape).ravel(), np.broadcast_to(s, out.shape).ravel()
    res = out.reshape(-1)
    for i in range(res.size):          # exact rational arithmetic, rounded once (rare: tails)
        a, c = float(flat_x[i]), float(flat_s[i])
        if math.isfinite(a) and math.isfinite(c):
            res[i] = float(Fraction(a) * Fraction(a) + Fraction(c))
        else:
            res[i] = a * a + c
    return out


def _fma32(x: np.ndarray, s: np.ndarray) -> np.ndarray:
    """float32 s + x*x rounded once: x*x is exact in float64, the sum is rounded to float64 and
    then to float32; that double rounding errs only when the float64 sum falls exactly halfway
    between two float32, which the lost remainder of the float64 sum then settles."""
    sq = x.astype(np.float64) ** 2
    s64 = np.asarray(s, np.float64)
    with np.errstate(over="ignore", invalid="ignore"):
        r = sq + s64
        lost = (sq - (r - (r - sq))) + (s64 - (r - sq))    # r + lost == sq + s64 exactly
        out = r.astype(np.float32)
        back = out.astype(np.float64)
        other = np.nextafter(out, np.where(r > back, np.inf, -np.inf).astype(np.float32))
        half = (back != r) & (other.astype(np.float64) - r == r - back) & (lost != 0) \
            & np.isfinite(r)
    if half.any():      # the exact sum lies on the side of r that `lost` points to
        toward_other = np.sign(lost) == np.sign(other.astype(np.float64) - back)
        out = np.where(half & toward_other, other, out)
    return out


def _rows(a: np.ndarray) -> np.ndarray:
    """Sums of squares of each row of C-contiguous (A, n) `a`, as PyTorch's last-dim kernel."""
    n = a.shape[1]
    lanes = 32 // a.itemsize
    nvec = n // lanes
    vecs = a[:, :nvec * lanes].reshape(a.shape[0], nvec, lanes)
    sq = vecs * vecs
    # lanes accumulate from +0 in order (numpy adds along a non-last axis in order)
    acc = np.add.reduce(sq, axis=1) if nvec else np.zeros((a.shape[0], lanes), a.dtype)
    total = acc[:, 0].copy()
    for j in range(1, lanes):
        total += acc[:, j]
    tail = a[:, nvec * lanes:]
    plain = tail.shape[1] // 4 * 4 if a.dtype == np.float32 else 0
    for k in range(tail.shape[1]):
        v = tail[:, k]
        total = total + v * v if k < plain else fma(v, total)
    return total


def _serial(a: np.ndarray, axes: tuple) -> np.ndarray:
    """Sums of squares over `axes`: rounded squares added one after another from +0, in the
    reduced dims' order (outputs keep the other dims, in order)."""
    keep = [d for d in range(a.ndim) if d not in axes]
    moved = np.moveaxis(a, list(axes), list(range(len(axes)))) if axes else a
    items = moved.reshape((-1,) + tuple(a.shape[d] for d in keep))
    total = np.zeros(items.shape[1:], a.dtype)
    for v in items:
        total = total + v * v
    return total


def _dense(a: np.ndarray, dims: list) -> bool:
    """Whether `dims` (the last ones of `a` that are not size 1) are laid out as one contiguous
    run, which PyTorch then reduces as rows."""
    step = a.itemsize
    for d in reversed(dims):
        if a.strides[d] != step:
            return False
        step *= a.shape[d]
    return True


def applies(a: np.ndarray) -> bool:
    """Whether `norm2` models PyTorch for `a` (float32/64, not huge)."""
    return a.dtype in (np.float32, np.float64) and 0 < a.size <= MAX_SERIAL


def norm2(a: np.ndarray, dim, keepdim: bool) -> np.ndarray:
    """The 2-norm of `a` (over the tuple `dim`, or all of it) in PyTorch's order of roundings."""
    axes = tuple(range(a.ndim)) if dim is None else tuple(sorted(d % a.ndim for d in dim))
    if not axes:
        axes = tuple(range(a.ndim))
    out_shape = tuple(1 if d in axes else n for d, n in enumerate(a.shape)) if keepdim else \
        tuple(n for d, n in enumerate(a.shape) if d not in axes)
    big = [d for d in range(a.ndim) if a.shape[d] != 1]
    red = [d for d in big if d in axes]
    if not red:             # nothing summed (size-1 dims only): PyTorch takes |x|
        return np.abs(a).reshape(out_shape)
    if len(red) == len(big) and (a.flags.c_contiguous or a.flags.f_contiguous):
        sums = _rows(a.ravel(order="K").reshape(1, -1))        # memory order
    elif red == big[len(big) - len(red):] and _dense(a, red):     # rows of trailing dims
        rows = np.ascontiguousarray(a).reshape(-1, math.prod(a.shape[d] for d in red))
        sums = _rows(rows)
    else:
        sums = _serial(a, tuple(red))
    return np.sqrt(sums).reshape(out_shape)
