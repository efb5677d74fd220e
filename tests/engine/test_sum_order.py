"""cascade_sum against the order of additions written out as plain loops, one float at a time.

The golden cases check the sums against real PyTorch on particular programs; this checks every
short length (fewer than four vectors, where one accumulator per lane takes the rows in order)
with values of mixed magnitudes, so that any change of order shows in the last bits.
"""
from __future__ import annotations

import numpy as np
import pytest

from gradstep.engine.ops._sum_order import cascade_sum


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


def cascade_model(a: np.ndarray) -> np.ndarray:
    """The order for four vectors or more, one row (4 accumulators x lanes) added at a time:
    runs of 16 rows, runs of 16 of those, each level from +0 and the levels added in turn;
    then the leftover vectors join accumulator 0, accumulators 1-3 follow, and the scalar tail
    and the lanes are added one by one."""
    dt = a.dtype.type
    lanes = 32 // a.itemsize
    n = a.size
    nvec = n // lanes
    whole = nvec // 4
    rows = a[:whole * 4 * lanes].reshape(whole, 4 * lanes)

    def in_order(rs, width):
        acc = np.zeros(width, a.dtype)
        for r in rs:
            acc = acc + r
        return acc

    blocks = [in_order(rows[i:i + 16], 4 * lanes) for i in range(0, whole - whole % 16, 16)]
    groups = [in_order(blocks[i:i + 16], 4 * lanes)
              for i in range(0, len(blocks) - len(blocks) % 16, 16)]
    levels = [rs for rs in (rows[len(blocks) * 16:], blocks[len(groups) * 16:], groups)
              if len(rs)]
    part = in_order(levels[0], 4 * lanes)
    for rs in levels[1:]:
        part = part + in_order(rs, 4 * lanes)
    part = part.reshape(4, lanes)
    vec = in_order([part[0], *a[whole * 4 * lanes:nvec * lanes].reshape(-1, lanes), *part[1:]],
                   lanes)
    total = dt(0)
    for x in [*a[nvec * lanes:], *vec]:
        total = dt(total + x)
    return np.asarray(total)


@pytest.mark.parametrize("dtype", [np.float32, np.float64])
def test_long_sums_add_in_cascade_order(dtype):
    rng = np.random.default_rng(11)
    lanes = 32 // np.dtype(dtype).itemsize
    row = 4 * lanes
    sizes = [row, row + 3, 2 * row + lanes + 1, 15 * row + 2 * lanes, 16 * row, 16 * row + 5,
             17 * row + 3 * lanes + 7, 160 * row, 256 * row + row + 1, 32768, 32767]
    for n in sizes:
        a = (rng.standard_normal(n) * 10.0 ** rng.integers(-4, 5, n)).astype(dtype)
        got, want = cascade_sum(a), cascade_model(a)
        assert got.dtype == want.dtype and got.tobytes() == want.tobytes(), n
