"""Floating-point sums in PyTorch's order of additions (its CPU `cascade_sum` kernel).

Why: a float32 sum depends on the order of its additions, and learners print `float(loss)` or
`%f` of a mean, which shows the last bits. PyTorch (CPU, 256-bit vectors) sums a contiguous
run as: 8-lane (float32; 4-lane float64) vectors, four vector accumulators interleaved, each a
cascade of partial sums flushed every 16 rows; then the scalar tail, then the lanes, in order.
Runs shorter than one vector use the same interleaving on scalars. Above 32768 elements PyTorch
splits the sum across threads, so the order depends on the machine: numpy's sum is used there.

Example:
    >>> import numpy as np
    >>> float(cascade_sum(np.arange(10, dtype=np.float32)))
    45.0
"""
from __future__ import annotations

import numpy as np

_ILP, _STEP = 4, 16      # accumulators interleaved; rows per cascade run (for <= 32768)
MAX_SERIAL = 32768       # PyTorch's grain size: larger sums are split over threads


def _add_rows(acc: np.ndarray, rows: np.ndarray) -> np.ndarray:
    """acc + rows[0] + rows[1] + ..., one addition at a time (cumsum never pairs)."""
    return np.cumsum(np.concatenate([acc[None], rows]), axis=0, dtype=acc.dtype)[-1]


def _block_sums(rows: np.ndarray, step: int) -> np.ndarray:
    """Each run of `step` rows added one by one (the caller keeps the leftover rows)."""
    nb = rows.shape[0] // step
    return np.cumsum(rows[:nb * step].reshape((nb, step) + rows.shape[1:]), axis=1)[:, -1]


def _multi_row_sum(rows: np.ndarray) -> np.ndarray:
    """Column sums of `rows` in the order of PyTorch's multi_row_sum: level 0 adds rows 16 at a
    time, each full run is carried into level 1, every 16 carries of level 1 into level 2, and
    the levels are added last. (Level 3 needs 4096 rows, beyond MAX_SERIAL elements.)"""
    zero = np.zeros(rows.shape[1:], rows.dtype)
    if rows.shape[0] < _STEP:          # no full run: level 0 only (the usual small case)
        return _add_rows(zero, rows)
    blocks = _block_sums(rows, _STEP)
    groups = _block_sums(blocks, _STEP)
    level2 = _add_rows(zero, groups)
    level1 = _add_rows(zero, blocks[groups.shape[0] * _STEP:])
    level0 = _add_rows(zero, rows[blocks.shape[0] * _STEP:])
    return ((level0 + level1) + level2) + zero


def _row_sum(items: np.ndarray) -> np.ndarray:
    """Sum of `items` (scalars, or vectors as rows) with four interleaved accumulators."""
    n = items.shape[0]
    whole = n // _ILP
    part = _multi_row_sum(items[:whole * _ILP].reshape((whole, _ILP) + items.shape[1:]))
    first = _add_rows(part[0], items[whole * _ILP:])
    return _add_rows(first, part[1:])


def cascade_sum(a: np.ndarray) -> np.ndarray:
    """The sum of contiguous float array `a` as PyTorch adds it (a 0-d array)."""
    flat = a.reshape(-1)
    lanes = 32 // flat.itemsize
    if flat.size <= 2:                 # (0 + a) + b: what numpy's sum does too
        return np.asarray(flat.sum(dtype=flat.dtype))
    if flat.size < 4:                  # ((0 + a) + b) + c
        return np.asarray(np.cumsum(flat, dtype=flat.dtype)[-1])
    if flat.size < lanes:
        return np.asarray(_row_sum(flat))
    nvec = flat.size // lanes
    rows = flat[:nvec * lanes].reshape(nvec, lanes)
    # fewer than four vectors: one accumulator takes them all, one at a time (the usual case)
    vec = np.cumsum(rows, axis=0)[-1] if nvec < _ILP else _row_sum(rows)
    tail = np.concatenate([np.zeros(1, flat.dtype), flat[nvec * lanes:], vec])
    return np.asarray(np.cumsum(tail, dtype=flat.dtype)[-1])


def applies(a: np.ndarray) -> bool:
    """Whether `cascade_sum` reproduces PyTorch for `a` (contiguous float32/64, not huge)."""
    return (a.dtype.kind == "f" and a.itemsize in (4, 8) and 0 < a.size <= MAX_SERIAL
            and a.flags.c_contiguous)
