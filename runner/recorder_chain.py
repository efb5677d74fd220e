"""The recorder's chain-rule numbers: each node's local derivatives, and version bumps.

A `node_apply` says what came into a node and what it sent to each input. What the chain rule
multiplies in between, ∂out/∂input (the node's local Jacobian), is asked of the engine itself:
the node's own backward is run again on one-hot gradients while the walk still holds its
saved tensors, so row i is what the node sends when the upstream gradient is the i-th unit
vector (docs/trace-format.md, section 16; runner/local_jacobian.py). In-place ops bump a
tensor's version counter; the bumps are remembered so that PyTorch's "modified by an inplace
operation" error can name the one that broke a saved tensor.
"""
from __future__ import annotations

from gradstep.engine.graph import FREED
from gradstep.engine.tensor import Tensor

from .local_jacobian import local_jacobian
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
