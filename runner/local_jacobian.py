"""A node's local Jacobian, ∂out/∂input, as the engine's own backward gives it.

Row i of J is what the node's backward sends to each input when the upstream gradient is the
i-th unit vector (docs/trace-format.md, section 16). Running the backward once per row costs a
few dozen backward calls per pass, the most expensive part of a detailed iteration. Three
kinds of node give the very same numbers from fewer calls (`_shortcut`); every other node, and
any of these whose saved values or shapes are not the plain case, runs once per row:

- ops that read their rows off what they saved, with a `local_rows` classmethod beside their
  backward (add, sub, mul, mm, addmm: engine/ops/_local_rows.py);
- elementwise (the ops the engine declares so, with jvp = "elementwise" or `elementwise`,
  when no input is broadcast): J is diagonal, row i holds f(1, x_i) at i and f(0, x_j)
  elsewhere, which the rows of the first two unit vectors and one backward of a gradient of
  ones give;
- views that only move elements (transpose, view, permute ...): one backward of the gradient
  1, 2, ..., n says where each element goes, and J holds 1 there.
"""
from __future__ import annotations

import contextlib
import io
import warnings
import numpy as np

from gradstep.engine import _events
from gradstep.engine._names import is_engine_module
from gradstep.engine.autograd.function import BackwardCFunction
from gradstep.engine.grad_mode import state as _grad_state
from gradstep.engine.ops._local_rows import Rows
from gradstep.engine.ops._mm_order import single_terms
from gradstep.engine.ops._op import OpNode
from gradstep.engine.saved_hooks import Packed
from gradstep.engine.tensor import Tensor, new_tensor


def runs_program_code(node) -> bool:
    """Whether running `node`'s backward again would run the program's own code: a custom
    `autograd.Function`'s backward, an unpack hook of `saved_tensors_hooks` (checkpoint's
    rerun of the program's function among them). Such code may print, count or append, so
    the recorder's illustrations (J, the local rows) never run it: the program's output must
    be what PyTorch prints, where the backward runs once.

        >>> import gradstep.engine as torch
        >>> x = torch.ones(2, requires_grad=True)
        >>> runs_program_code((x * 2).grad_fn)
        False
    """
    if isinstance(node, BackwardCFunction):
        cls = getattr(node, "_fn_cls", None)
        if cls is None or getattr(cls, "calls_program", False) \
                or not is_engine_module(cls.__module__):
            return True
    return any(type(v) is Packed for v in getattr(node, "_saved", ()))


def local_jacobian(node, g_in, grads_out: tuple, rows: int, cap: int) -> list | None:
    """∂out/∂input of a one-output node, by its own backward on one-hot gradients.

    Returns one entry per `grads_out` entry: None where no gradient flows or the input has
    more than `cap` elements, else one list per element j of that input (flattened) of the
    pairs [i, ∂out.flat[i]/∂input.flat[j]] that are not zero. None when the upstream gradient
    has more than `rows` elements, is not real, or the backward refuses to run again. Runs
    unobserved, without recording a graph (even under create_graph), and with the node's hooks
    left out: the hooks' changes are steps of the pass, not the node's derivative. None for a
    node whose backward is the program's code (`runs_program_code`). A product
    with a one-hot factor is numpy's rather than PyTorch's emulated order (`single_terms`):
    with one nonzero term per entry the order cannot change a nonzero number.

    Example:
        >>> import gradstep.engine as torch
        >>> x = torch.tensor([1.0, 2.0], requires_grad=True)
        >>> y = x * x
        >>> local_jacobian(y.grad_fn, torch.ones(2), (torch.ones(2), torch.ones(2)), 16, 64)
        [[[[0, 1.0]], [[1, 2.0]]], [[[0, 1.0]], [[1, 2.0]]]]
    """
    if type(g_in) is not Tensor or runs_program_code(node):
        return None
    a = g_in._data
    if a.size == 0 or a.size > rows or a.dtype.kind != "f":
        return None
    sizes: list = [g._data.size if type(g) is Tensor and 0 < g._data.size <= cap else None
                   for g in grads_out]
    if all(s is None for s in sizes):
        return None
    old = _events.set_listener(None)
    enabled, quiet = _grad_state.enabled, _grad_state.quiet
    _grad_state.enabled, _grad_state.quiet = False, True
    try:
        with warnings.catch_warnings(), contextlib.redirect_stdout(io.StringIO()), \
                contextlib.redirect_stderr(io.StringIO()), single_terms():
            warnings.simplefilter("ignore")
            mats: Rows | None
            try:
                mats = _shortcut(node, a, sizes)
            except Exception:  # not the plain case after all: the rows below decide
                mats = None
            if mats is None:
                mats = _one_hot_rows(node, a, sizes)
        return [None if m is None else _columns(*m, sizes[k]) for k, m in enumerate(mats)]
    except Exception:  # the numbers are an illustration; never let them break a run
        return None
    finally:
        _grad_state.enabled, _grad_state.quiet = enabled, quiet
        _events.set_listener(old)


def _one_hot_rows(node, a: np.ndarray, sizes: list) -> Rows:
    """One backward of `node` per unit vector of the gradient's shape."""
    got: list = [None if s is None else [] for s in sizes]
    for i in range(a.size):
        onehot = np.zeros(a.size, dtype=a.dtype)
        onehot[i] = 1
        outs = node.apply((new_tensor(onehot.reshape(a.shape)),))
        for k, o in enumerate(outs):
            taken = got[k] if k < len(got) else None
            if taken is None or type(o) is not Tensor:
                continue
            flat = np.array(o._data, dtype=np.float64).ravel()     # a copy: it is kept
            if flat.size != sizes[k]:   # a shape the edge never carries: no picture
                got[k] = None
                continue
            taken.append((i, flat))
    return [None if t is None else
            ([i for i, _ in t], np.array([f for _, f in t]) if t else np.zeros((0, sizes[k])))
            for k, t in enumerate(got)]


def _columns(at: list | None, mat: np.ndarray, size: int) -> list:
    """The column lists of J from its rows: per input element j, the [i, J[i, j]] whose
    value is not zero, i ascending (nan counts as not zero, -0.0 as zero)."""
    cols: list = [[] for _ in range(size)]
    if mat.shape[0]:
        t = mat.T
        js, rs = np.nonzero(t)     # row-major: by j, then by row
        vals = t[js, rs].tolist()
        if at is None:
            for j, i, v in zip(js.tolist(), rs.tolist(), vals):
                cols[j].append([i, v])
        else:
            for j, r, v in zip(js.tolist(), rs.tolist(), vals):
                cols[j].append([at[r], v])
    return cols


def _shortcut(node, a: np.ndarray, sizes: list) -> Rows | None:
    """J's rows from fewer backward calls for the node kinds of the module docstring, or None
    where the node is not one of them (or its case is not the plain one)."""
    cls = type(node)
    op = getattr(cls, "_op", None)
    if op is None or cls.apply is not OpNode.apply or a.size < 3:
        return None     # (below three rows the one-hot calls are as few)
    rows = getattr(op, "local_rows", None)
    if rows is not None:
        found = rows(node, a, sizes)
        if found is not None:
            return found
    jvp = getattr(op, "jvp", None)
    if jvp == "elementwise" or op.elementwise:
        return _diagonal(node, a, sizes)
    if jvp == "linear" and op.is_view:
        return _moved(node, a, sizes)
    return None


def _run(node, seed: np.ndarray, shape: tuple) -> tuple:
    return node.apply((new_tensor(seed.reshape(shape)),))


def _flat(o) -> np.ndarray:
    return np.array(o._data, dtype=np.float64).ravel()


def _diagonal(node, a: np.ndarray, sizes: list) -> Rows | None:
    """An elementwise backward: the rows of e_0 and e_1 give every off-diagonal entry
    (f(0, x_j) for j != i, the same in every row), one backward of ones gives the diagonal
    (f(1, x_i)). Where the three disagree on what they share, the node is not elementwise."""
    n = a.size
    if any(s is not None and s != n for s in sizes):    # an input broadcast: not elementwise
        return None
    e0, e1 = np.zeros(n, dtype=a.dtype), np.zeros(n, dtype=a.dtype)
    e0[0] = e1[1] = 1
    runs = [_run(node, s, a.shape) for s in (e0, e1, np.ones(n, dtype=a.dtype))]
    out: list = []
    for k, s in enumerate(sizes):
        if s is None:
            out.append(None)
            continue
        got = [r[k] if k < len(r) else None for r in runs]
        if all(type(o) is not Tensor for o in got):
            out.append(([], np.zeros((0, s))))
            continue
        if any(type(o) is not Tensor for o in got):
            return None
        r0, r1, d = [_flat(o) for o in got]
        if not (r0.size == r1.size == d.size == n and r0[:1].tobytes() == d[:1].tobytes()
                and r1[1:2].tobytes() == d[1:2].tobytes()
                and r0[2:].tobytes() == r1[2:].tobytes()):
            return None
        off = r0.copy()
        off[0] = r1[0]
        mat = np.tile(off, (n, 1))
        mat[np.arange(n), np.arange(n)] = d
        out.append((None, mat))
    return out


def _moved(node, a: np.ndarray, sizes: list) -> Rows | None:
    """A view's backward that puts each gradient element somewhere: the gradient 1, 2, ...,
    n marks where each goes. Anything but the n marks landing apart (a sum, a scale) is not
    such a move."""
    n = a.size
    marks = np.arange(1, n + 1, dtype=a.dtype)
    want = np.arange(1, n + 1, dtype=np.float64)
    if not np.array_equal(marks.astype(np.float64), want):   # not exact in this dtype
        return None
    outs = _run(node, marks, a.shape)
    out: list = []
    for k, s in enumerate(sizes):
        if s is None:
            out.append(None)
            continue
        o = outs[k] if k < len(outs) else None
        if type(o) is not Tensor or o._data.dtype.kind != "f":
            return None
        flat = _flat(o)
        where = np.flatnonzero(flat)
        if flat.size != s or where.size != n or not np.array_equal(np.sort(flat[where]), want):
            return None
        mat = np.zeros((n, s))
        mat[flat[where].astype(np.intp) - 1, where] = 1.0
        out.append((None, mat))
    return out
