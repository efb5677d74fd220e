"""Small matrix products in the order PyTorch's CPU kernels add their terms.

# NOTE [small matrix products]
# A float32 product depends on the order of its multiply-adds, and learners print a Linear
# layer's `loss.item()`. numpy's matmul matched PyTorch's last bit for about half the entries
# of small products. PyTorch hands mm, addmm and mv to MKL (AVX-512: 16 float32 lanes) and
# dot to its BLAS too; measured against PyTorch 2.13 on random data, entry by entry:
#
# - When the second operand is row-major (its rows run along n), or the first is column-major,
#   each entry is one chain of fused multiply-adds over k from 0 (`sequential`): MKL's packed
#   gemm kernel. That covers the backward products `grad @ w` and `grad.t() @ x`.
#   - Matrix times vector along the outputs (one row times a row-major matrix, a column-major
#     matrix times one column: a Linear(k, 1) or Linear(1, n) weight's gradient) is another
#     kernel (`_outer`): outputs in blocks of 16, each taking 8 or more terms in lanes of two;
#     the last rows % 16 outputs, and fewer than 8 terms, are the chain. From 24 terms (a
#     batch of 32) a third block comes in whose order is not known: numpy there.
# - When both operands run along k (`x @ w.t()`, F.linear's forward, and mm with one column),
#   MKL takes dot products, 16 lanes wide (`_lanes`): lane j a chain of fused multiply-adds
#   over terms j, j + 16, ..., then the lanes added in halves (8 + 8, 4 + 4, 2 + 2, 1 + 1).
#   - One row or one column (gemv; also torch.mv of a row-major matrix), any number of rows
#     (measured to 256): term 0 is taken apart. Rows go in blocks of four where it starts
#     lane 0 (`_seeded`; a last vector shorter than 16 is a second pass started from the
#     first's total); in the last rows % 4 its rounded product is added after the lanes'
#     total (`_peeled`).
#   - Otherwise the chain from 12 columns; below, the lanes while the output has 2 or 3
#     columns, or fewer rows than columns and k at most the columns; else the chain.
#   - A 1 x 1 mm result reads mat2's strides: unit column stride is the chain, else peeled.
# - torch.dot: rounded products added into 8 lanes, the halves added, then adjacent pairs.
# - addmm adds its bias after rounding the product, except for k == 1 with m, n > 1 (a
#   rank-one update: one fused multiply-add each). Its backward computes mat1's gradient as
#   (mat2 @ grad.t()).t() when mat1 is column-major, which a 1 x 1 input always is: the
#   1 x 1 product then reads grad.t()'s strides (nn_ops.Addmm).
# Outside the sizes measured (the constants below) the order changes again (blocking, other
# tails), and numpy's product is kept; so is float64's (a float64 fused multiply-add cannot be
# emulated in float64). fma32's double rounding (ops/_exact.py) changed no result measured.
# A small bmm is PyTorch's own loop (not MKL): one unfused product and sum at a time.
"""
from __future__ import annotations

import contextlib

import numpy as np

from ._exact import F32, fma32

MAX_MACS = 16384     # multiply-adds per product: larger ones keep numpy (BLAS) order and speed
CHAIN_K = 256        # longest chain measured (MKL splits k somewhere between 300 and 512)
LANES = 16           # float32 lanes of MKL's AVX-512 dot kernels
VECTOR_K = 31        # longest run of terms in lanes measured for the plain and peeled forms
SEEDED_K = 32        # the same for the seeded form (two vectors after term 0)
DOT_K = 16           # longest vectors measured for torch.dot
OUTER_ROWS = 16      # outputs per block of MKL's matrix-times-vector kernel along the outputs
OUTER_K = 23         # most terms measured for it (from 24 the third block's order is unknown)
PLAIN_N = 11         # widest output of the plain form (from 12 columns it is the chain)
PLAIN_NARROW = 30    # most entries measured for the plain form with 2 or 3 columns


def sequential(a: np.ndarray, b: np.ndarray, fused: bool = True) -> np.ndarray:
    """a @ b over the last two dims, each entry accumulating its products in order of k from
    zero: one fused multiply-add each (fused), or a rounded product then a sum (not fused)."""
    shape = np.broadcast_shapes(a.shape[:-2], b.shape[:-2]) + (a.shape[-2], b.shape[-1])
    if not fused:
        acc = np.zeros(shape, dtype=a.dtype)
        for t in range(a.shape[-1]):
            acc = acc + a[..., t:t + 1] * b[..., t:t + 1, :]
        return acc
    # Every term's product at once, in float64 where a product of two float32 values is
    # exact: p[..., :, t, :] = a[..., :, t] (outer) b[..., t, :]. Then one ufunc call per
    # term: adding a float64 product to the float32 total picks numpy's float64 loop (the
    # total widened exactly), and writing into the float32 total rounds that sum once more,
    # which is fma32(col, row, acc) bit for bit with one call where it made five. A
    # cumulative sum cannot replace the loop: np.add.accumulate keeps its running total in
    # float64 between terms, so it rounds once at the end instead of once per term.
    p = np.multiply(a[..., :, :, None], b[..., None, :, :], dtype=np.float64)
    acc = np.zeros(shape, dtype=F32)
    add = np.add
    for t in range(a.shape[-1]):
        add(p[..., t, :], acc, out=acc, casting="same_kind")
    return acc


def _lanes(x: np.ndarray, y: np.ndarray, seed=None) -> np.ndarray:
    """Dot products along the last axis of x and y (broadcast), 16 lanes of fused multiply-adds
    (lane 0 starting from `seed`, if given), the lanes then added in halves."""
    shape = np.broadcast_shapes(x.shape[:-1], y.shape[:-1])
    acc = np.zeros(shape + (LANES,), dtype=F32)
    if seed is not None:
        acc[..., 0] = seed
    k = x.shape[-1]
    for s in range(0, k, LANES):
        w = min(LANES, k - s)      # a short last vector leaves the other lanes as they are
        acc[..., :w] = fma32(x[..., s:s + w], y[..., s:s + w], acc[..., :w])
    while acc.shape[-1] > 1:
        h = acc.shape[-1] // 2
        acc = acc[..., :h] + acc[..., h:]
    return acc[..., 0]


def _peeled(x, y):
    return x[..., 0] * y[..., 0] + _lanes(x[..., 1:], y[..., 1:])


def _seeded(x, y):
    """Term 0's product starts lane 0 of the full vectors of 16 terms after it; a shorter
    last vector is a second pass whose lane 0 starts from the first pass's total."""
    full = 1 + (x.shape[-1] - 1) // LANES * LANES
    if full == 1 or full == x.shape[-1]:
        return _lanes(x[..., 1:], y[..., 1:], seed=x[..., 0] * y[..., 0])
    head = _lanes(x[..., 1:full], y[..., 1:full], seed=x[..., 0] * y[..., 0])
    return _lanes(x[..., full:], y[..., full:], seed=head)


def _gemv(x: np.ndarray, y: np.ndarray):
    """MKL's dot products for one row or one column: rows (along x's axis 0) in blocks of 4
    seeded, the last rows % 4 peeled; None where not measured."""
    rows, k = x.shape[0], x.shape[-1]
    full = rows - rows % 4
    if k - 1 > SEEDED_K or (rows > full and k - 1 > VECTOR_K):
        return None
    return np.concatenate([_seeded(x[:full], y), _peeled(x[full:], y)])


def _outer(x: np.ndarray, y: np.ndarray):
    """x @ y (x (rows, k), y (k,)) as MKL computes a matrix times a vector along the outputs
    (a column-major matrix, or a vector times a row-major one), None where not measured.

    The last rows % 16 outputs, and all of them for fewer than 8 terms, are one chain. Blocks
    of 16 outputs take the terms in lanes of two, (0, 2), (1, 3), (4, 6), (5, 7): the later
    product rounded, the earlier fused onto it, then ((0, 2) + (1, 3)) + ((4, 6) + (5, 7)).
    From 16 terms, terms 8-15 follow: 14 then 12 fused onto that sum, (13, 15) added as a lane,
    and (8, 10) + (9, 11) last. The terms after the last block are a chain.
    """
    rows, k = x.shape
    full = rows - rows % OUTER_ROWS
    if not full or k < 8:
        return sequential(x, y[:, None])[:, 0]
    if k > OUTER_K:
        return None
    a = x[:full]

    def term(t, acc):
        return fma32(a[:, t], y[t], acc)

    def lane(t):
        return term(t, a[:, t + 2] * y[t + 2])

    acc = (lane(0) + lane(1)) + (lane(4) + lane(5))
    done = 8
    if k >= 16:
        acc = (term(12, term(14, acc)) + lane(13)) + (lane(8) + lane(9))
        done = 16
    for t in range(done, k):
        acc = term(t, acc)
    return np.concatenate([acc, sequential(x[full:], y[:, None])[:, 0]])


def _column_major(x: np.ndarray) -> bool:
    rows, cols = x.shape
    return rows > 1 and cols > 1 and x.strides[0] == x.itemsize


class _Terms:
    """Whether small_mm may take numpy's product where every entry has at most one nonzero
    term (`single_terms()`)."""
    single = False


@contextlib.contextmanager
def single_terms():
    """Within: a small product whose every entry has at most one nonzero term is numpy's.

    The order of additions matters only when two nonzero terms meet; with one (a one-hot
    operand, as when a node's backward runs on a unit gradient to find its local derivative)
    every order gives that term's product, so the emulated chain is a cost and nothing else.
    A zero entry may then differ in its sign, so this is for callers that keep only the
    nonzero entries (runner/recorder_chain.py).
    """
    old, _Terms.single = _Terms.single, True
    try:
        yield
    finally:
        _Terms.single = old


def _single_terms(a: np.ndarray, b: np.ndarray) -> bool:
    """Every entry of a @ b has at most one nonzero product (both operands finite: 0 * inf
    is nan, and a BLAS may skip a zero factor rather than multiply it)."""
    return bool(((np.count_nonzero(a, axis=1) <= 1).all()
                 or (np.count_nonzero(b, axis=0) <= 1).all())
                and np.isfinite(a).all() and np.isfinite(b).all())


def small_mm(a: np.ndarray, b: np.ndarray):
    """a @ b (2-D float32) in PyTorch's order, or None where that order is not known here.

    Example:
        >>> a = np.array([[1.0, 2.0]], dtype=np.float32)
        >>> small_mm(a, a.T).tolist(), small_mm(a.astype(np.float64), a.T)
        ([[5.0]], None)
    """
    if a.dtype != F32 or b.dtype != F32:
        return None
    (m, k), n = a.shape, b.shape[1]
    if not 0 < m * n * k <= MAX_MACS or k > CHAIN_K:
        return None
    if _Terms.single and _single_terms(a, b):   # any order gives the one term: numpy's
        return None
    # PyTorch copies other layouts to row-major; a size-1 dim fits either layout
    if m == n == 1:            # a (k, 1) mat2 with unit column stride counts as row-major
        return sequential(a, b) if b.strides[1] == b.itemsize else _peeled(a, b.T)[:, None]
    if m == 1 and not _column_major(b):        # a vector times a row-major matrix
        out = _outer(b.T, a[0])
        return None if out is None else out[None, :]
    if not (n == 1 or _column_major(b)):
        return sequential(a, b)
    if n == 1 and _column_major(a):
        out = _outer(a, b[:, 0])
        return None if out is None else out[:, None]
    if _column_major(a):       # both column-major: measured only where it is the chain
        return sequential(a, b) if m >= n or k > n else None
    if m == 1 or n == 1:       # matrix times vector: the rows are the longer side
        out = _gemv(b.T, a[0]) if m == 1 else _gemv(a, b[:, 0])
        return None if out is None else out.reshape(m, n)
    if k > VECTOR_K + 1:
        return None
    if n > PLAIN_N:            # wider outputs are the chain whatever the other sizes
        return sequential(a, b)
    if n <= 3 or (m < n and k <= n):
        plain = k <= VECTOR_K and (n > 3 or m * n <= PLAIN_NARROW)
        return _lanes(a[:, None, :], b.T[None, :, :]) if plain else None
    return sequential(a, b)


def addmm_rank_one(bias: np.ndarray, a: np.ndarray, b: np.ndarray):
    """bias + a @ b for k == 1 (float32), fused as MKL's rank-one update, or None otherwise."""
    (m, k), n = a.shape, b.shape[1]
    if k != 1 or m == 1 or n == 1 or not m * n <= MAX_MACS:
        return None
    if a.dtype != F32 or b.dtype != F32 or bias.dtype != F32:
        return None
    return fma32(a, b, bias)


def small_mv(a: np.ndarray, v: np.ndarray):
    """torch.mv's a @ v (float32) in PyTorch's order, or None where not known here."""
    if a.dtype != F32 or v.dtype != F32 or not 0 < a.size <= MAX_MACS:
        return None
    if a.shape[1] > CHAIN_K:
        return None
    if _column_major(a):
        return _outer(a, v)
    return _gemv(a, v)


def small_dot(x: np.ndarray, y: np.ndarray):
    """torch.dot (float32) in PyTorch's order, or None where not known here."""
    if x.dtype != F32 or y.dtype != F32 or not 0 < x.size <= DOT_K:
        return None
    acc = np.zeros(8, dtype=F32)
    p = x * y
    for s in range(0, p.size, 8):
        acc[:min(8, p.size - s)] += p[s:s + 8]
    acc = acc[:4] + acc[4:]
    return np.asarray((acc[0] + acc[1]) + (acc[2] + acc[3]))


def matmul2d(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    """a @ b for 2-D arrays: PyTorch's order for small float32 products, else numpy's."""
    if a.shape[0] * a.shape[1] * b.shape[1] > MAX_MACS:   # what small_mm refuses first
        return a @ b
    out = small_mm(a, b)
    return a @ b if out is None else out
