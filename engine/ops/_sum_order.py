"""Floating-point sums in PyTorch's order of additions (its CPU `cascade_sum` kernel).

Why: a float32 sum depends on the order of its additions, and learners print `float(loss)` or
`%f` of a mean, which shows the last bits. PyTorch (CPU, 256-bit vectors) sums a contiguous
run as: 8-lane (float32; 4-lane float64) vectors, four vector accumulators interleaved, each a
cascade of partial sums flushed every 16 rows; then the scalar tail, then the lanes, in order.
Runs shorter than one vector use the same interleaving on scalars. Above 32768 elements PyTorch
splits the sum across threads, so the order depends on the machine: numpy's sum is used there.
Sums along dims (`dim_sum`, also what `sum_to` reduces a broadcast gradient with) follow its
inner loop (a row: the same scheme) and outer loop (columns: groups added row after row, the
rest with four interleaved row accumulators), for up to SMALL elements.

Example:
    >>> import numpy as np
    >>> float(cascade_sum(np.arange(10, dtype=np.float32)))
    45.0
"""
from __future__ import annotations

import math

import numpy as np

_SHORT_ORDER = {n: np.array([0, *range(4, n), 1, 2, 3]) for n in range(4, 8)}
# (one vector's lanes take the elements in order, so for lanes <= n < 2 lanes the sum below
# is a fixed permutation added up one by one; filled per n as met)
_ONE_VECTOR_ORDER: dict = {}
_ILP, _STEP = 4, 16      # accumulators interleaved; rows per cascade run (for <= 32768)
MAX_SERIAL = 32768       # PyTorch's grain size: larger sums are split over threads
# running sums one addition at a time, in the array's own (float) dtype: the ufunc method
# itself, without np.cumsum's Python wrapper, a microsecond less per short sum (hot: every
# mean and every broadcast gradient of a learner-sized tensor comes through here)
_accumulate = np.add.accumulate
_reduce = np.add.reduce
SMALL = 4096             # dim sums of more elements keep numpy's order (speed, ops/_exact.py)


def _in_order(stack: np.ndarray, axis: int) -> np.ndarray:
    """stack summed along `axis` one slice after another, without pairing terms up.

    numpy's sum pairs terms only along a contiguous innermost axis: over a C-contiguous array
    with at least two elements after the summed axis it adds whole slices in order, from +0,
    several times faster than an accumulate along an outer axis (cumsum), which serves the
    rest. The two can differ only in the sign of a zero result, which every caller here adds
    to a +0 accumulator afterwards or never produces (its first row is never -0).
    """
    stack = np.ascontiguousarray(stack)
    if math.prod(stack.shape[axis + 1:]) >= 2:
        return np.add.reduce(stack, axis=axis)
    return np.take(_accumulate(stack, axis=axis), -1, axis=axis)


def _add_rows(acc: np.ndarray, rows: np.ndarray) -> np.ndarray:
    """acc + rows[0] + rows[1] + ..., one addition at a time."""
    if not len(rows):
        return acc
    return _in_order(np.concatenate([acc[None], rows]), 0)


def _block_sums(rows: np.ndarray, step: int) -> np.ndarray:
    """Each run of `step` rows added one by one (the caller keeps the leftover rows)."""
    nb = rows.shape[0] // step
    if not nb:
        return rows[:0]
    return _in_order(rows[:nb * step].reshape((nb, step) + rows.shape[1:]), 1)


def _multi_row_sum(rows: np.ndarray) -> np.ndarray:
    """Column sums of `rows` in the order of PyTorch's multi_row_sum: level 0 adds rows 16 at a
    time, each full run is carried into level 1, every 16 carries of level 1 into level 2, and
    the levels are added last. (Level 3 needs 4096 rows, beyond MAX_SERIAL elements.)"""
    if rows.shape[0] < _STEP:          # no full run: level 0 only (the usual small case)
        return _from_zero(rows)
    blocks = _block_sums(rows, _STEP)
    groups = _block_sums(blocks, _STEP)
    # ((level0 + level1) + level2) + 0: a level starts from +0, so it is never -0 and adding
    # an empty one changes no bit; those additions are skipped
    levels = [_from_zero(r) for r in (rows[blocks.shape[0] * _STEP:],
                                      blocks[groups.shape[0] * _STEP:], groups) if len(r)]
    total = levels[0]
    for level in levels[1:]:
        total = total + level
    return total


def _from_zero(rows: np.ndarray) -> np.ndarray:
    """0 + rows[0] + rows[1] + ..., so never -0 (PyTorch's accumulators start at +0)."""
    if len(rows) and math.prod(rows.shape[1:]) >= 2:
        return _in_order(rows, 0)      # numpy's in-order sum starts from +0 too
    return _add_rows(np.zeros(rows.shape[1:], rows.dtype), rows)


def _row_sum(items: np.ndarray) -> np.ndarray:
    """Sum of `items` (scalars, or vectors as rows) with four interleaved accumulators."""
    n = items.shape[0]
    whole = n // _ILP
    part = _multi_row_sum(items[:whole * _ILP].reshape((whole, _ILP) + items.shape[1:]))
    tail = items[whole * _ILP:]
    if not len(tail):       # part[0] is never -0: 0 + part[0] + part[1] ... is the same sum
        return _from_zero(part)
    return _add_rows(_add_rows(part[0], tail), part[1:])


def cascade_sum(a: np.ndarray) -> np.ndarray:
    """The sum of contiguous float array `a` as PyTorch adds it (a 0-d array)."""
    flat = a.reshape(-1)
    lanes = 32 // flat.itemsize
    if flat.size <= 2:                 # (0 + a) + b: what numpy's sum does too
        return np.asarray(flat.sum(dtype=flat.dtype))
    n = flat.size
    # PyTorch's accumulators start at +0.0, so a sum is never -0.0: "+ 0" restores that
    if n < 4:                          # ((0 + a) + b) + c
        return np.asarray(_accumulate(flat)[-1] + 0)
    if n < lanes:                      # accumulator 0 takes a0 then the tail, then a1, a2, a3
        return np.asarray(_accumulate(flat[_SHORT_ORDER[n]])[-1] + 0)
    if n < 2 * lanes:                  # one vector: the tail first, then its lanes in order
        order = _ONE_VECTOR_ORDER.get(n)
        if order is None:
            order = _ONE_VECTOR_ORDER[n] = np.r_[lanes:n, 0:lanes]
        return np.asarray(_accumulate(flat[order])[-1] + 0)
    nvec = n // lanes
    rows = flat[:nvec * lanes].reshape(nvec, lanes)
    # fewer than four vectors: one accumulator takes them all, one at a time (the usual case;
    # numpy adds rows in order along axis 0)
    vec = rows.sum(axis=0) if nvec < _ILP else _vector_row_sum(rows)
    return np.asarray(_accumulate(np.concatenate((flat[nvec * lanes:], vec)))[-1] + 0)


def _vector_row_sum(rows: np.ndarray) -> np.ndarray:
    """`_row_sum` of contiguous (nvec >= 4, lanes) vectors, with the same additions in fewer
    numpy calls (a loss's mean comes through here once a step): the four accumulators' lanes
    are the columns of one 2-D array, every run is added in order by one `np.add.reduce` over
    contiguous rows (see `_in_order`), and the tail joins accumulator 0 in the same reduce
    that then adds accumulators 1-3, which is the order `_row_sum` adds them in."""
    nvec, lanes = rows.shape
    whole, width = nvec // _ILP, _ILP * lanes
    items = rows[:whole * _ILP].reshape(whole, width)
    if whole < _STEP:                       # level 0 only
        part = _reduce(items, 0)
    else:                                   # _multi_row_sum's levels, each from +0
        nb = whole // _STEP
        blocks = _reduce(items[:nb * _STEP].reshape(nb, _STEP, width), 1)
        ng = nb // _STEP
        part = None
        for level in (items[nb * _STEP:], blocks[ng * _STEP:],
                      _reduce(blocks[:ng * _STEP].reshape(ng, _STEP, width), 1)):
            if len(level):
                level = _reduce(level, 0)
                part = level if part is None else part + level
    part = part.reshape(_ILP, lanes)
    if whole * _ILP == nvec:
        return _reduce(part, 0)
    return _reduce(np.concatenate((part[:1], rows[whole * _ILP:], part[1:])), 0)


def applies(a: np.ndarray) -> bool:
    """Whether `cascade_sum` reproduces PyTorch for `a` (contiguous float32/64, not huge)."""
    return (a.dtype.kind == "f" and a.itemsize in (4, 8) and 0 < a.size <= MAX_SERIAL
            and a.flags.c_contiguous)


def _coalesce(shape: tuple, axes: set) -> list:
    """(size, reduced) runs of `shape` with size-1 dims dropped and neighbours of the same kind
    merged, as PyTorch's TensorIterator presents a contiguous tensor to its reduction loop."""
    runs: list = []
    for d, n in enumerate(shape):
        if n == 1:
            continue
        red = d in axes
        if runs and runs[-1][1] == red:
            runs[-1][0] *= n
        else:
            runs.append([n, red])
    return runs


def _outer_sum(x: np.ndarray) -> np.ndarray:
    """Column sums of (A, R, B) `x` over R as PyTorch's outer reductions add them: groups of
    columns summed row after row (multi_row_sum), the leftover columns with four interleaved
    row accumulators (row_sum). Vectorised (B >= lanes): groups of 4 vectors, then whole
    vectors go to row_sum; scalar: groups of 4 columns."""
    b = x.shape[2]
    lanes = 32 // x.itemsize
    group = 4 * lanes if b >= lanes else 4
    split = b // group * group
    rows = np.moveaxis(x, 1, 0)                      # (R, A, B): items along axis 0
    out = np.empty(x.shape[:1] + (b,), x.dtype)
    if split:
        out[:, :split] = _multi_row_sum(rows[:, :, :split])
    if split < b:
        out[:, split:] = _row_sum(rows[:, :, split:])
    return out


def _inner_sum(x: np.ndarray) -> np.ndarray:
    """Row sums of (A, R) `x` as PyTorch's inner reductions add them (cascade_sum per row)."""
    r = x.shape[1]
    lanes = 32 // x.itemsize
    if r < lanes:
        return _row_sum(x.T)
    nvec = r // lanes
    vecs = np.moveaxis(x[:, :nvec * lanes].reshape(x.shape[0], nvec, lanes), 1, 0)
    vec = _accumulate(vecs, axis=0)[-1] if nvec < _ILP else _row_sum(vecs)
    zero = np.zeros((x.shape[0], 1), x.dtype)
    return _accumulate(np.concatenate([zero, x[:, nvec * lanes:], vec], axis=1), axis=1)[:, -1]


def dim_sum(a: np.ndarray, axes: tuple, keepdims: bool):
    """`a` summed over `axes` in PyTorch's order of additions, or None where that order is not
    modelled (more than one run of reduced dims, or a reduction `applies` refuses).

    Example:
        >>> import numpy as np
        >>> dim_sum(np.ones((2, 3), np.float32), (1,), False).tolist()
        [3.0, 3.0]
    """
    if not applies(a) or a.size > SMALL:
        return None
    if a.ndim == 2 and len(axes) == 1 and 1 not in a.shape:      # the usual case, quickly
        out = _sum3(a.reshape(*a.shape, 1) if axes[0] % 2 else a.reshape(1, *a.shape))
        return out.reshape((1, -1) if axes[0] % 2 == 0 else (-1, 1)) if keepdims else \
            out.reshape(-1)
    axes_set = {d % a.ndim for d in axes}
    runs = _coalesce(a.shape, axes_set)
    kinds = [red for _, red in runs]
    if kinds.count(True) > 1:
        return None
    shape = tuple(1 if d in axes_set else n for d, n in enumerate(a.shape)) if keepdims else \
        tuple(n for d, n in enumerate(a.shape) if d not in axes_set)
    if True not in kinds:                            # nothing to add up: 0 + a, as PyTorch
        return np.add(a, 0, dtype=a.dtype).reshape(shape)
    i = kinds.index(True)
    outer = runs[i - 1][0] if i else 1
    inner = runs[i + 1][0] if i + 1 < len(runs) else 1
    return _sum3(a.reshape(outer, runs[i][0], inner)).reshape(shape)


def _sum3(x: np.ndarray) -> np.ndarray:
    """(A, R, B) `x` summed over R in PyTorch's order; an (A, B) array."""
    r, inner = x.shape[1], x.shape[2]
    if r <= _ILP:      # one addition after another (numpy's order too), from PyTorch's 0
        return np.add(x.sum(axis=1), 0, dtype=x.dtype)
    if inner > 1:
        return _outer_sum(x)
    if r < 32 // x.itemsize:       # row_sum: four accumulators, the tail joins the first
        x = x[:, :, 0]
        acc = x[:, 0] + x[:, 4]
        for k in range(5, r):
            acc += x[:, k]
        acc += x[:, 1]
        acc += x[:, 2]
        acc += x[:, 3]
        return acc
    return _inner_sum(x[:, :, 0])


VEC_LANES = 16   # float32 lanes of the vectors PyTorch's softmax kernels use (AVX-512 builds)


def lane_sum(a: np.ndarray) -> np.ndarray:
    """Sums along the last axis (kept, size 1) in the order of PyTorch's `vec::reduce_all`,
    which its softmax kernels use: a row shorter than one vector is added element after
    element; a longer one adds its whole vectors lane-wise, blends a partial last vector into
    the first lanes, then halves the lanes (the upper half onto the lower) down to one.

    Example:
        >>> import numpy as np
        >>> lane_sum(np.arange(6, dtype=np.float32).reshape(2, 3)).tolist()
        [[3.0], [12.0]]
    """
    n, lanes = a.shape[-1], VEC_LANES
    if n < lanes:
        return _accumulate(a, axis=-1)[..., -1:]
    acc = a[..., :lanes].copy()
    d = lanes
    while d + lanes <= n:
        acc += a[..., d:d + lanes]
        d += lanes
    if d < n:
        acc[..., :n - d] += a[..., d:]
    while acc.shape[-1] > 1:
        half = acc.shape[-1] // 2
        acc = acc[..., :half] + acc[..., half:]
    return acc
