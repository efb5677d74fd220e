"""Small matrix products against their order of multiply-adds written out as plain loops.

The golden case bits_small_matmul checks the products against real PyTorch; this checks that
the vectorised forms in ops/_mm_order.py compute, entry by entry, the order the NOTE
[small matrix products] describes, with values of mixed magnitudes so that any change of order
shows in the last bits.
"""
from __future__ import annotations

import numpy as np
import pytest

from gradstep.engine.ops import _mm_order as mo

F32 = np.float32


def fma(a, b, c):
    """One fused multiply-add rounded to float32 (the float32 product is exact in float64)."""
    return F32(float(a) * float(b) + float(c))


def chain(x, y):
    acc = F32(0)
    for s, t in zip(x, y):
        acc = fma(s, t, acc)
    return acc


def lanes(x, y, seed=None):
    """16 lanes, lane j taking terms j, j + 16, ...; then the halves added, 8 + 8 down to 1."""
    acc = [F32(0)] * 16
    if seed is not None:
        acc[0] = seed
    for i, (s, t) in enumerate(zip(x, y)):
        acc[i % 16] = fma(s, t, acc[i % 16])
    while len(acc) > 1:
        h = len(acc) // 2
        acc = [F32(acc[j] + acc[j + h]) for j in range(h)]
    return acc[0]


def peeled(x, y):
    return F32(F32(x[0] * y[0]) + lanes(x[1:], y[1:]))


def seeded(x, y):
    """Term 0 starts lane 0 of the full vectors of 16 after it; a shorter last vector is a
    second pass started from the first pass's total."""
    full = 1 + (len(x) - 1) // 16 * 16
    if full in (1, len(x)):
        return lanes(x[1:], y[1:], seed=F32(x[0] * y[0]))
    return lanes(x[full:], y[full:], seed=lanes(x[1:full], y[1:full], seed=F32(x[0] * y[0])))


def outer(x, y, block):
    """One output of MKL's matrix-times-vector along the outputs: a chain unless its row is in
    a block of 16 and there are 8 terms or more; then lanes of two (the later product rounded,
    the earlier fused onto it), ((0, 2) + (1, 3)) + ((4, 6) + (5, 7)), from 16 terms 14 and 12
    fused onto that, plus (13, 15), plus (8, 10) + (9, 11); a chain over the rest."""
    k = len(x)
    if not block or k < 8:
        return chain(x, y)

    def lane(t):
        return fma(x[t], y[t], F32(x[t + 2] * y[t + 2]))
    acc = F32(F32(lane(0) + lane(1)) + F32(lane(4) + lane(5)))
    done = 8
    if k >= 16:
        acc = fma(x[12], y[12], fma(x[14], y[14], acc))
        acc = F32(F32(acc + lane(13)) + F32(lane(8) + lane(9)))
        done = 16
    for t in range(done, k):
        acc = fma(x[t], y[t], acc)
    return acc


def loop_mm(a, b, form):
    """Each entry of a @ b computed by `form` from its row of a and column of b."""
    out = np.zeros((a.shape[0], b.shape[1]), F32)
    for i in range(a.shape[0]):
        for j in range(b.shape[1]):
            out[i, j] = form(a[i], b[:, j])
    return out


def gemv_row(rows, i):
    """Rows in blocks of four are seeded, the last rows % 4 peeled."""
    return seeded if i < rows - rows % 4 else peeled


def data(rng, shape):
    return (rng.standard_normal(shape) * 10.0 ** rng.integers(-3, 4, shape)).astype(F32)


def col_major(x):
    return np.asfortranarray(x)


# (m, k, n), a column-major?, b column-major?, the order each entry follows
CASES = [
    ((3, 5, 4), False, False, chain),       # both row-major: the packed gemm kernel
    ((4, 9, 3), True, False, chain),        # grad.t() @ x
    ((5, 7, 6), False, True, chain),        # x @ w.t() with more rows than columns
    ((1, 9, 5), False, False, chain),       # a vector times a row-major matrix
    ((4, 5, 3), False, True, lanes),        # x @ w.t() with up to 3 columns
    ((2, 31, 2), False, True, lanes),
    ((3, 5, 8), False, True, lanes),        # fewer rows than columns and k <= columns
    ((4, 9, 11), False, True, lanes),       # ... up to 11 columns
    ((3, 5, 12), False, True, chain),       # from 12 columns the chain, whatever m and k
    ((6, 20, 13), False, True, chain),
    ((2, 20, 1), False, False, peeled),     # one column, up to 3 rows
    ((1, 9, 3), False, True, peeled),       # one row, up to 3 columns
]


@pytest.mark.parametrize("shape,acol,bcol,form", CASES)
def test_small_products_follow_the_loop_model(shape, acol, bcol, form):
    rng = np.random.default_rng(sum(shape))
    m, k, n = shape
    for _ in range(20):
        a, b = data(rng, (m, k)), data(rng, (k, n))
        a, b = col_major(a) if acol else a, col_major(b) if bcol else b
        got = mo.small_mm(a, b)
        want = loop_mm(a, b, form)
        assert got is not None and got.tobytes() == want.tobytes(), (shape, a, b)


@pytest.mark.parametrize("rows,k", [(4, 3), (6, 9), (7, 17), (13, 12), (20, 5), (33, 17),
                                    (7, 20), (13, 25), (20, 32), (4, 33)])
def test_matrix_times_vector_takes_rows_in_blocks_of_four(rows, k):
    rng = np.random.default_rng(rows * k)
    for _ in range(10):
        a, v = data(rng, (rows, k)), data(rng, (k,))
        want = np.array([gemv_row(rows, i)(a[i], v) for i in range(rows)], F32)
        assert mo.small_mv(a, v).tobytes() == want.tobytes()
        assert mo.small_mm(a, v[:, None])[:, 0].tobytes() == want.tobytes()
        assert mo.small_mm(v[None, :], a.T)[0].tobytes() == want.tobytes()   # one row


@pytest.mark.parametrize("rows", [3, 16, 21, 37])
@pytest.mark.parametrize("k", [5, 8, 13, 16, 23])
def test_matrix_times_vector_along_the_outputs_takes_blocks_of_16(rows, k):
    rng = np.random.default_rng(rows * k)
    for _ in range(5):
        a, v = data(rng, (rows, k)), data(rng, (k,))
        want = np.array([outer(a[i], v, i < rows - rows % 16) for i in range(rows)], F32)
        cm = col_major(a)
        assert mo.small_mv(cm, v).tobytes() == want.tobytes()
        assert mo.small_mm(cm, v[:, None])[:, 0].tobytes() == want.tobytes()
        assert mo.small_mm(v[None, :], a.T.copy())[0].tobytes() == want.tobytes()


def test_one_by_one_product_depends_on_mat2_strides():
    rng = np.random.default_rng(3)
    x, w = data(rng, (1, 7)), data(rng, (1, 7))
    assert mo.small_mm(x, w.T)[0, 0] == peeled(x[0], w[0])            # w.t(): columns apart
    column = w.reshape(7, 1)                                    # a (7, 1) column, unit strides
    assert mo.small_mm(x, column)[0, 0] == chain(x[0], w[0])


def test_dot_adds_rounded_products_in_eight_lanes():
    rng = np.random.default_rng(8)
    for k in range(1, mo.DOT_K + 1):
        x, y = data(rng, (k,)), data(rng, (k,))
        acc = [F32(0)] * 8
        for i in range(k):
            acc[i % 8] = F32(acc[i % 8] + F32(x[i] * y[i]))
        acc = [F32(acc[j] + acc[j + 4]) for j in range(4)]
        want = F32(F32(acc[0] + acc[1]) + F32(acc[2] + acc[3]))
        assert mo.small_dot(x, y).tobytes() == np.asarray(want).tobytes(), k


def test_rank_one_addmm_fuses_the_bias():
    rng = np.random.default_rng(1)
    a, b, bias = data(rng, (4, 1)), data(rng, (1, 3)), data(rng, (3,))
    want = np.array([[fma(a[i, 0], b[0, j], bias[j]) for j in range(3)] for i in range(4)])
    assert mo.addmm_rank_one(bias, a, b).tobytes() == want.astype(F32).tobytes()
    assert mo.addmm_rank_one(bias[:1], a, b[:, :1]) is None       # one column: bias after


def test_small_bmm_adds_unfused_products_in_order():
    rng = np.random.default_rng(2)
    a, b = data(rng, (2, 3, 5)), data(rng, (2, 5, 4))
    want = np.zeros((2, 3, 4), F32)
    for t in range(5):
        want = want + a[:, :, t:t + 1] * b[:, t:t + 1, :]
    assert mo.sequential(a, b, fused=False).tobytes() == want.tobytes()


def test_unmeasured_products_are_left_to_numpy():
    rng = np.random.default_rng(4)
    f64 = data(rng, (3, 4)).astype(np.float64)
    assert mo.small_mm(f64, f64.T) is None                          # float64
    assert mo.small_mm(data(rng, (64, 64)), data(rng, (64, 64))) is None    # large
    assert mo.small_mm(data(rng, (2, 40)), data(rng, (2, 40)).T) is None    # long dot form
    assert mo.small_mv(data(rng, (20, 40)), data(rng, (40,))) is None      # seeded, k > 33
    assert mo.small_mv(data(rng, (5, 33)), data(rng, (33,))) is None       # peeled, k > 32
    assert mo.small_mv(col_major(data(rng, (20, 24))), data(rng, (24,))) is None  # 3rd block
    assert mo.small_dot(data(rng, (20,)), data(rng, (20,))) is None
