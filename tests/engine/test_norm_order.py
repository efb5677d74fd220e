"""norm2 against PyTorch's order of roundings for 2-norms written out as plain loops.

The golden case bits_norms checks the norms against real PyTorch on fixed tensors; this checks
every short length, float32 and float64, with values of mixed magnitudes, so that a change of
order (or a fused multiply-add rounded twice) shows in the last bits.
"""
from __future__ import annotations

from fractions import Fraction

import numpy as np
import pytest

from gradstep.engine.ops._norm_order import fma, norm2


def fused(dt, x, s):
    """s + x*x rounded once, in exact rational arithmetic (the nearest of three neighbours for
    float32, ties to an even last bit: float(q) alone would round twice)."""
    q = Fraction(float(x)) ** 2 + Fraction(float(s))
    near = dt(float(q))
    if dt is np.float64:
        return near
    cands = [np.nextafter(near, dt(-np.inf)), near, np.nextafter(near, dt(np.inf))]
    return min(cands, key=lambda c: (abs(Fraction(float(c)) - q),
                                     int(c.view(np.uint32)) & 1))


def loop_norm(a: np.ndarray):
    """One lane accumulator per vector lane, the lanes added left to right, then the leftover
    elements (float32: the first four as rounded squares), then the square root."""
    dt = a.dtype.type
    lanes = 32 // a.itemsize
    nvec = a.size // lanes
    acc = [dt(0)] * lanes
    for r in range(nvec):
        for j in range(lanes):
            v = a[r * lanes + j]
            acc[j] = dt(acc[j] + dt(v * v))
    total = acc[0]
    for j in range(1, lanes):
        total = dt(total + acc[j])
    tail = a[nvec * lanes:]
    plain = len(tail) // 4 * 4 if a.dtype == np.float32 else 0
    for k, v in enumerate(tail):
        total = dt(total + dt(v * v)) if k < plain else fused(dt, v, total)
    return np.sqrt(total)


@pytest.mark.parametrize("dtype", [np.float32, np.float64])
def test_norms_round_in_pytorch_order(dtype):
    rng = np.random.default_rng(11)
    for n in range(2, 41):
        for _ in range(25):
            a = (rng.standard_normal(n) * 10.0 ** rng.integers(-4, 5, n)).astype(dtype)
            got, want = norm2(a, None, False), loop_norm(a)
            assert got.dtype == want.dtype and got.tobytes() == want.tobytes(), (n, a)


def test_rows_and_leading_dims():
    rng = np.random.default_rng(3)
    a = (rng.standard_normal((4, 13)) * 10.0 ** rng.integers(-3, 4, (4, 13))).astype(np.float32)
    rows = norm2(a, (1,), False)
    assert rows.tobytes() == np.array([loop_norm(r) for r in a]).tobytes()
    cols = norm2(a, (0,), True)       # rounded squares added down each column
    want = np.zeros(13, np.float32)
    for r in a:
        want = want + r * r
    assert cols.shape == (1, 13) and cols.tobytes() == np.sqrt(want).tobytes()


def test_float32_fma_is_rounded_once():
    rng = np.random.default_rng(5)
    x = rng.standard_normal(4000).astype(np.float32)
    s = (rng.standard_normal(4000) * 10.0 ** rng.integers(-8, 8, 4000)).astype(np.float32)
    # halfway cases: x*x + s lands exactly between two float32 once rounded to float64
    x[:2] = np.float32(1 + 2 ** -12)
    s[:2] = [np.float32(2 ** -80), np.float32(-(2 ** -80))]
    got = fma(x, s)
    want = np.array([fused(np.float32, a, b) for a, b in zip(x, s)], np.float32)
    assert got.tobytes() == want.tobytes()
