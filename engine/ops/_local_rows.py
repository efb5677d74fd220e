"""Rows of a node's local Jacobian read off what the node saved, for ops that declare them.

The trace shows each node's ∂out/∂input (runner/local_jacobian.py): row i is what the node's
backward sends each input when the upstream gradient is the i-th unit vector. Running the
backward once per row is the general way. An op whose backward is a sum of products with
one nonzero term per entry for a unit gradient can give the same numbers from its saved
values; it says so with a `local_rows(cls, node, a, sizes)` classmethod beside its backward,
built from the two layouts here, so the op's derivative stays written in one place:

- `summed`: input k's gradient is sum_to(grad * c_k) (add, sub, mul). For the unit gradient
  at i that is c_k[i] at the element i was broadcast from, added to zeros (exact when c_k is
  finite), and zero elsewhere;
- `matmul`: a matrix product's bias, mat1 and mat2 (addmm, mm). For the unit gradient at
  (r, c) each entry has a single nonzero term, a saved matrix's entry times 1, exactly (the
  engine takes the same shortcut, `_mm_order.single_terms`), so J is the saved matrices laid
  out.

`node` is the op's graph node, `a` the upstream gradient's array (its shape is the output's;
its dtype the one a saved factor must have), and `sizes` the element count of each input's
gradient, or None where no rows are wanted. What a layout returns, per input: None where
no rows are wanted, else (row numbers or None for all rows in order, one float64 row per row
number flattened as the input). A layout returns None for anything but the plain case (a
factor changed in place, not finite, of another dtype; a shape it does not expect), and the
caller then runs the backward once per row.
"""
from __future__ import annotations

from typing import TypeAlias

import numpy as np

from ..tensor import Tensor

Rows: TypeAlias = "list[tuple[list[int] | None, np.ndarray] | None]"


def saved(node, op, name: str):
    """What `node` saved under `name`, found by the op's own list of what it saves."""
    return node._saved[op.saves.index(name)]


def saved_array(node, op, name: str, dtype, ndim: int | None = None) -> np.ndarray | None:
    """Saved tensor `name`'s array when it is a plain tensor as saved (not changed in place
    since), of the gradient's dtype (and of `ndim` dimensions, if given) and finite: a nan or
    inf among the zero terms would not vanish. Else None."""
    i = op.saves.index(name)
    v = node._saved[i]
    versions = node._versions
    if type(v) is not Tensor or v._data.dtype != dtype or (ndim is not None
                                                            and v._data.ndim != ndim):
        return None
    if versions and versions[i] is not None and v._vc[0] != versions[i]:
        return None
    return v._data if np.isfinite(v._data).all() else None


def signed(node, op, a: np.ndarray, sizes: list, sign: float) -> Rows | None:
    """Rows of `self + sign * other` (add, sub) when its saved alpha is 1: the factors 1 and
    `sign`; None for another alpha, whose product the one-hot rows give exactly."""
    alpha = saved(node, op, "alpha")
    if type(alpha) not in (int, float) or alpha != 1:
        return None
    return summed(node, op, a, sizes, [1.0, sign])


def summed(node, op, a: np.ndarray, sizes: list, factors: list) -> Rows | None:
    """Rows of a two-input node whose input k's gradient is sum_to(grad * factors[k]) to the
    input's shape (saved as `_self_sym_sizes`, `_other_sym_sizes`): factors[k] a number or an
    array (None for an input without a gradient)."""
    fns = node._fns
    shapes = saved(node, op, "_self_sym_sizes"), saved(node, op, "_other_sym_sizes")
    if len(fns) != 2 or len(sizes) != 2:
        return None
    n = a.size
    out: list = []
    for k, s in enumerate(sizes):
        if s is None:
            out.append(None)
        elif fns[k] is None:
            out.append(([], np.zeros((0, s))))
        else:
            if factors[k] is None or int(np.prod(shapes[k], dtype=np.int64)) != s:
                return None
            where = np.broadcast_to(np.arange(s).reshape(shapes[k]), a.shape).ravel()
            values = np.broadcast_to(np.asarray(factors[k], dtype=np.float64), a.shape).ravel()
            mat = np.zeros((n, s))
            mat[np.arange(n), where] = values
            out.append((None, mat))
    return out


def matmul(node, op, a: np.ndarray, sizes: list, fns: tuple, bias_sizes,
           mat1: str) -> Rows | None:
    """Rows of a product's inputs (bias, mat1, mat2), with fns their graph edges (the bias's
    None when there is none: mm), `bias_sizes` the bias's shape (None: no bias) and `mat1`
    the name the first matrix is saved under (mat2's is "mat2"): for the unit gradient at
    (r, c), the bias gets 1 where (r, c) sums to, mat1's row r is mat2's column c, and
    mat2's column c is mat1's row r."""
    if a.ndim != 2:
        return None
    m, n = a.shape
    has_bias = bias_sizes is not None
    if len(fns) != 3 or len(sizes) != 2 + has_bias:
        return None
    outs: list = []
    for k, fn in enumerate(fns):
        if k == 0 and not has_bias:
            continue
        s = sizes[k - (not has_bias)]
        if s is None:
            outs.append(None)
        elif fn is None:
            outs.append(([], np.zeros((0, s))))
        elif k == 0:    # the bias: sum_to the gradient, the inverse of broadcasting
            where = np.broadcast_to(np.arange(s).reshape(bias_sizes), a.shape).ravel()
            mat = np.zeros((m * n, s))
            mat[np.arange(m * n), where] = 1.0
            outs.append((None, mat))
        elif k == 1:    # mat1 (m, q): grad @ mat2.T
            mat2 = saved_array(node, op, "mat2", a.dtype, 2)
            if mat2 is None or mat2.shape[1] != n or s != m * mat2.shape[0]:
                return None
            q = mat2.shape[0]
            mat = np.eye(m)[:, None, :, None] * mat2.T.astype(np.float64)[None, :, None, :]
            outs.append((None, mat.reshape(m * n, m * q)))
        else:           # mat2 (q, n): mat1.T @ grad
            m1 = saved_array(node, op, mat1, a.dtype, 2)
            if m1 is None or m1.shape[0] != m or s != m1.shape[1] * n:
                return None
            q = m1.shape[1]
            mat = m1.astype(np.float64)[:, None, :, None] * np.eye(n)[None, :, None, :]
            outs.append((None, mat.reshape(m * n, q * n)))
    return outs
