"""cascade_sum against the order of additions written out as plain loops, one float at a time.

The golden cases check the sums against real PyTorch on particular programs; this checks every
short length (fewer than four vectors, where one accumulator per lane takes the rows in order)
with values of mixed magnitudes, so that any change of order shows in the last bits.
"""
from __future__ import annotations

import numpy as np
import pytest

from engine.ops._sum_order import cascade_sum


def loop_sum(a: np.ndarray) -> np.ndarray:
    """PyTorch's order for fewer than four vectors, one addition at a time in a's dtype."""
    dt = a.dtype.type
    lanes = 32 // a.itemsize
    n = a.size
    total = dt(0)
    if n < 4:
        order = range(n)
    elif n < lanes:             # accumulator 0 takes a0, then the tail, then a1, a2, a3
        order = [0, *range(4, n), 1, 2, 3]
    else:
        nvec = n // lanes
        acc = [a[j] for j in range(lanes)]
        for r in range(1, nvec):
            for j in range(lanes):
                acc[j] = dt(acc[j] + a[r * lanes + j])
        for x in a[nvec * lanes:]:
            total = dt(total + x)
        for x in acc:
            total = dt(total + x)
        return np.asarray(total)
    for i in order:
        total = dt(total + a[i])
    return np.asarray(total)


@pytest.mark.parametrize("dtype", [np.float32, np.float64])
def test_short_sums_add_in_pytorch_order(dtype):
    rng = np.random.default_rng(7)
    lanes = 32 // np.dtype(dtype).itemsize
    for n in range(1, 4 * lanes):
        for _ in range(40):
            a = (rng.standard_normal(n) * 10.0 ** rng.integers(-4, 5, n)).astype(dtype)
            got, want = cascade_sum(a), loop_sum(a)
            assert got.dtype == want.dtype and got.tobytes() == want.tobytes(), (n, a)


def test_a_sum_of_negative_zeros_is_positive_zero():
    for n in (3, 5, 9, 12, 20):
        assert np.signbit(cascade_sum(np.full(n, -0.0, np.float32))) == False  # noqa: E712
