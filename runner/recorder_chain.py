"""The recorder's chain-rule numbers: each node's local derivatives, and version bumps.

A `node_apply` says what came into a node and what it sent to each input. What the chain rule
multiplies in between, ∂out/∂input (the node's local Jacobian), is asked of the engine itself:
the node's own backward is run again on one-hot gradients while the walk still holds its
saved tensors, so row i is what the node sends when the upstream gradient is the i-th unit
vector (docs/trace-format.md, section 16). In-place ops bump a tensor's version counter; the
bumps are remembered so that PyTorch's "modified by an inplace operation" error can name the
one that broke a saved tensor.
"""
from __future__ import annotations

import contextlib
import io
import warnings

import numpy as np

from gradstep.engine import _events
from gradstep.engine.grad_mode import state as _grad_state
from gradstep.engine.graph import FREED
from gradstep.engine.ops._mm_order import single_terms
from gradstep.engine.tensor import Tensor, new_tensor

from .recorder_backward import _graph_nodes
from .recorder_state import RecorderState


class ChainEvents(RecorderState):
    """Recorder methods for local derivatives and version bumps (state in Recorder)."""

    def _note_local(self, rec: tuple, node, g_in, grads_out: tuple) -> None:
        """Keep the local Jacobian of `node` for its node_apply record `rec`, if small."""
        # one backward of the node per element of its gradient: J's size bounds them (a few
        # dozen per pass), the inputs are bounded as their numbers are
        cols = local_jacobian(node, g_in, grads_out, self.limits["jacobian_max_numel"],
                              self.limits["data_max_numel"])
        if cols is not None:
            self._locals[id(rec)] = (rec, cols)

    def _note_bump(self, tensor, version: int, tid: str) -> None:
        """An in-place op on `tensor` (id `tid`) made its version counter `version`."""
        vc = tensor._vc
        entry = self._bumps.get(id(vc))
        if entry is None or entry[0] is not vc:     # the counter is held: its id stays its own
            entry = self._bumps[id(vc)] = (vc, {})
        entry[1][int(version)] = tid

    def _modified_node(self):
        """The node a pass raised at when the exception is not at hand and a saved tensor was
        changed in place: the first node of the pass's graph holding such a tensor."""
        for n in _graph_nodes(self._active[1] if self._active is not None else ()):
            if n._uid in self._nids and self._modified(n) is not None:
                return n
        return None

    def _modified(self, node) -> dict | None:
        """For a node whose backward found a saved tensor changed in place: which one, at what
        version it was saved and is now, and the tensor whose in-place op made the first
        version after the saved one (`by`), or None when no such saved tensor is there."""
        versions = getattr(node, "_versions", None) or ()
        names = getattr(type(node), "_saved_names", ())
        for i, saved_at in enumerate(versions):
            v = node._saved[i] if i < len(node._saved) else None
            if saved_at is None or v is FREED or type(v) is not Tensor or v._vc[0] == saved_at:
                continue
            entry = self._bumps.get(id(v._vc))
            bumped = entry[1] if entry is not None and entry[0] is v._vc else {}
            by = bumped.get(saved_at + 1)
            return {"tensor": self._tids.get(v._uid), "saved": names[i] if i < len(names) else None,
                    "expected": int(saved_at), "version": int(v._vc[0]),
                    "by": None if by is None else {"tensor": by, "version": saved_at + 1}}
        return None


def local_jacobian(node, g_in, grads_out: tuple, rows: int, cap: int) -> list | None:
    """∂out/∂input of a one-output node, by its own backward on one-hot gradients.

    Returns one entry per `grads_out` entry: None where no gradient flows or the input has
    more than `cap` elements, else one list per element j of that input (flattened) of the
    pairs [i, ∂out.flat[i]/∂input.flat[j]] that are not zero. None when the upstream gradient
    has more than `rows` elements, is not real, or the backward refuses to run again. Runs
    unobserved, without recording a graph (even under create_graph), and with the node's hooks
    left out: the hooks' changes are steps of the pass, not the node's derivative. A product
    with a one-hot factor is numpy's rather than PyTorch's emulated order (`single_terms`):
    with one nonzero term per entry the order cannot change a nonzero number.

    Example:
        >>> import gradstep.engine as torch
        >>> x = torch.tensor([1.0, 2.0], requires_grad=True)
        >>> y = x * x
        >>> local_jacobian(y.grad_fn, torch.ones(2), (torch.ones(2), torch.ones(2)), 16, 64)
        [[[[0, 1.0]], [[1, 2.0]]], [[[0, 1.0]], [[1, 2.0]]]]
    """
    if type(g_in) is not Tensor:
        return None
    a = g_in._data
    if a.size == 0 or a.size > rows or a.dtype.kind != "f":
        return None
    sizes = [g._data.size if type(g) is Tensor and 0 < g._data.size <= cap else None
             for g in grads_out]
    if all(s is None for s in sizes):
        return None
    cols: list = [None if s is None else [[] for _ in range(s)] for s in sizes]
    old = _events.set_listener(None)
    enabled, quiet = _grad_state.enabled, _grad_state.quiet
    _grad_state.enabled, _grad_state.quiet = False, True
    try:
        with warnings.catch_warnings(), contextlib.redirect_stdout(io.StringIO()), \
                contextlib.redirect_stderr(io.StringIO()), single_terms():
            warnings.simplefilter("ignore")
            for i in range(a.size):
                onehot = np.zeros(a.size, dtype=a.dtype)
                onehot[i] = 1
                outs = node.apply((new_tensor(onehot.reshape(a.shape)),))
                for k, o in enumerate(outs):
                    col = cols[k] if k < len(cols) else None
                    if col is None or type(o) is not Tensor:
                        continue
                    flat = np.asarray(o._data, dtype=np.float64).ravel()
                    if flat.size != len(col):   # a shape the edge never carries: no picture
                        cols[k] = None
                        continue
                    for j in np.flatnonzero(flat).tolist():
                        col[j].append([i, float(flat[j])])
    except Exception:  # the numbers are an illustration; never let them break a run
        return None
    finally:
        _grad_state.enabled, _grad_state.quiet = enabled, quiet
        _events.set_listener(old)
    return cols
