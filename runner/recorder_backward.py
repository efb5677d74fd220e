"""The recorder's backward events: passes, node applications, gradients, optimizer steps.

The half of `runner/recorder.py`'s Recorder that backward passes and optimizers call
(`engine._events`), with the graph walks and the Jacobian a pass's first event carries. These
methods read and write the recorder's state (`Recorder.__init__`); the class is only a way to
keep them in a file of their own.
"""
from __future__ import annotations

import contextlib
import io
import warnings
import weakref
from operator import attrgetter
from typing import Any

import numpy as np

from gradstep.engine import _events
from gradstep.engine._names import is_engine_module
from gradstep.engine.graph import AccumulateGrad
from gradstep.engine.tensor import Tensor

from .local_jacobian import runs_program_code
from .trace_build import Snap, num
from .recorder_state import RecorderState


# NOTE [a gradient handed on]
# In a chain of nodes the gradient a node gives its first edge is the very tensor the next
# node receives, and node_apply snapshotted it twice. The second snapshot is the first one
# again when nothing can have changed the tensor in between: it is the same tensor (uid),
# its version is the same (an in-place change bumps it), the last record in the window is
# still the node_apply that snapshotted it (an event in between, such as an accumulation or
# a print, or a tensor getting an id, makes it not), and the receiving node has no hooks
# (the walk runs a node's pre-hooks and the hooks of the tensors it made only when the node
# has `_x`). The walk never sums into a gradient in place (walk._add_to makes a new tensor).


class BackwardEvents(RecorderState):
    """Recorder methods for backward events (runner/recorder.py's Recorder has the state)."""

    _closing: bool   # a pass ended: its window closes at the next event (Recorder._settle)

    # ---- backward events ------------------------------------------------------------------
    def on_backward_begin(self, roots, grad_tensors, retain_graph, create_graph, inputs,
                          api) -> None:
        line, frame, _ = self._where()
        self._settle()
        if (self._pending or self._fresh) and frame is not None:
            self._maybe_scan(frame, line)   # `loss` of this iteration, bound on an earlier line
        k = self._passes
        self._passes += 1
        root_ids = [self._tid(r, line) for r in roots]
        # For a scalar root J is one row, the very gradient the pass accumulates; after the
        # first passes (a training loop's) it would only double the cost of backward. Such a
        # pass needs only its leaves from the graph, not the checks that guard J.
        scalar_late = k >= self.limits["detail_head"] and all(r._data.size == 1 for r in roots)
        if scalar_late:
            leaves, nodes, unsafe = _graph_leaves(roots) if inputs is None else [], (), "late_pass"
        else:
            leaves, nodes, unsafe = _walk(roots, self.limits["jacobian_max_nodes"])
        if inputs is not None:  # backward(inputs=...) / autograd.grad: only these get grads
            leaves = list(inputs)
        leaf_ids = [self._tid(t, line) for t in leaves]
        seeds = [s if isinstance(s, Tensor) else None for s in grad_tensors]
        implicit = all(s is None or (s._uid not in self._tids and s._data.size == 1)
                       for s in seeds)
        jac, note = None, "late_pass" if scalar_late else unsafe or "graph_too_big"
        if not unsafe and len(nodes) <= self.limits["jacobian_max_nodes"]:
            jac, note = self._jacobian(roots, seeds, leaves, root_ids, leaf_ids, nodes)
        self._jac_after = None
        if unsafe == "program_code":
            self._jac_after = self._jacobian_after(roots, seeds, leaves, root_ids, leaf_ids,
                                                   nodes, k)
        first = roots[0]._data if roots else None
        if first is not None and first.size == 1:
            # item() reads the one element whatever the shape (cheaper than a 0-d reshape)
            self._series.append([k, num(first.item(), self.limits["digits"])])
        self._window.append(("backward_begin", line, k, api, root_ids,
                             [self._snap(r) for r in roots],
                             [self._snap(s) if s is not None else _ones_snap(r)
                              for s, r in zip(seeds, roots)],
                             implicit, bool(retain_graph), bool(create_graph),
                             None if inputs is None else [self._tid(t, line) for t in inputs],
                             leaf_ids, jac, note if jac is None else None))
        # a pass begun inside another (a reentrant checkpoint's backward, a hook calling
        # backward) hands the outer one back when it ends
        self._outer_passes.append(None if self._active is None else
                                  (self._active, self._bw_frame, self._bw_line, self._local_ok))
        self._active = (k, tuple(roots), bool(create_graph))
        # the chain rule's local numbers cost one backward of a node per element of its
        # gradient: the first passes only, of graphs small enough for J
        # (a node running the program's code gets no rows of its own: local_jacobian)
        self._local_ok = k < self.limits["detail_head"] and unsafe in (None, "program_code") \
            and len(nodes) <= self.limits["jacobian_max_nodes"] and not self._light
        if create_graph and implicit:
            self._seeds.extend((s._uid, r) for s, r in zip(grad_tensors, root_ids)
                               if isinstance(s, Tensor))
        self._bw_frame, self._bw_line = self._inner_frame(), line
        self._plan_next(frame, line)

    def _jacobian_after(self, roots, seeds, leaves, root_ids, leaf_ids, nodes,
                        k: int) -> dict | None:
        """What fills in J from the pass itself when J may not be computed beforehand
        because the graph runs the program's code, or None where it cannot: for one root of
        one element, J is one row, and row j is exactly the gradient the pass hands leaf j's
        AccumulateGrad (the same backward code computes both). The program's hooks could
        change what is handed on, so a graph with any keeps its note."""
        cap = self.limits["jacobian_max_numel"]
        if len(roots) != 1 or roots[0]._data.size != 1 or not leaves \
                or any(t._data.size > cap for t in leaves) or _program_hooks(nodes, leaves):
            return None
        seed = seeds[0]
        v = 1.0 if seed is None else float(seed._data.ravel()[0])
        return {"at": len(self._window), "pass": k, "v": v, "root": root_ids[0],
                "leaves": list(leaf_ids),
                "sizes": [t._data.size for t in leaves], "added": {}}

    def _fill_jacobian(self, after: dict) -> None:
        """Put the row the pass accumulated into its backward_begin record (see
        _jacobian_after)."""
        at = after["at"]
        rec = self._window[at] if at < len(self._window) else None
        if rec is None or rec[0] != "backward_begin" or rec[2] != after["pass"]:
            return      # the window moved on (a cap cut it): the note stays
        digits, v = self.limits["digits"], after["v"]
        jac = []
        for lid, size in zip(after["leaves"], after["sizes"]):
            row = after["added"].get(lid)
            row = [0.0] * size if row is None or len(row) != size else row
            jac.append({"root": after["root"], "leaf": lid, "rows": [[num(x, digits) for x in row]],
                        "vjp": [num(v * x, digits) for x in row]})
        self._window[at] = rec[:-2] + (jac, None)

    def _jacobian(self, roots, seeds, leaves, root_ids, leaf_ids, nodes) -> tuple:
        """(J of each root w.r.t. each leaf, by one-hot vector-Jacobian products, or None;
        why it is None: "too_large", "freed", "no_leaves" or "failed").

        Runs unobserved and retains the graph, so the program's state (every .grad, the saved
        buffers, the counters behind ids) is exactly as if it had not been computed. Hooks
        and retain_grad() are set aside meanwhile (a hook that appends to a list must not run
        twice: J is the derivative itself, the hooks' changes are steps of the pass). A graph
        whose backward runs the program's own code (a custom Function's backward, an unpack
        hook) is not differentiated here at all (`_walk`): what it prints would be printed
        again.
        """
        cap = self.limits["jacobian_max_numel"]
        if not leaves:
            return None, "no_leaves"
        if any(r._data.size > cap for r in roots) or any(t._data.size > cap for t in leaves):
            return None, "too_large"
        if any(n._freed for n in nodes):
            return None, "freed"
        from gradstep.engine import autograd
        digits = self.limits["digits"]
        out = []
        old = _events.set_listener(None)
        hooked = [(n, n._x) for n in nodes if n._x and (
            n._x.get("tensors") or n._x.get("hooks") or n._x.get("prehooks"))]
        for n, x in hooked:
            n._x = {k: v for k, v in x.items() if k not in ("tensors", "hooks", "prehooks")}
        try:
            with warnings.catch_warnings(), contextlib.redirect_stdout(io.StringIO()), \
                    contextlib.redirect_stderr(io.StringIO()):
                warnings.simplefilter("ignore")
                for r, rid, seed in zip(roots, root_ids, seeds):
                    rows = []
                    for i in range(r._data.size):
                        onehot = np.zeros(r._data.size, dtype=r._data.dtype)
                        onehot[i] = 1
                        probe = _tensor_from(onehot.reshape(r._data.shape))
                        g = autograd.grad([r], list(leaves), grad_outputs=[probe],
                                          retain_graph=True, allow_unused=True)
                        rows.append([None if gi is None else gi._data.ravel() for gi in g])
                    v = (seed._data.ravel() if seed is not None
                         else np.ones(r._data.size, dtype=r._data.dtype))
                    for j, lid in enumerate(leaf_ids):
                        mat = np.array([np.zeros(leaves[j]._data.size) if row[j] is None
                                        else row[j] for row in rows], dtype=np.float64)
                        out.append({"root": rid, "leaf": lid,
                                    "rows": [[num(x, digits) for x in m] for m in mat.tolist()],
                                    "vjp": [num(x, digits) for x in (v @ mat).tolist()]})
        except Exception:  # J is an illustration; never let it break a run
            return None, "failed"
        finally:
            for n, x in hooked:
                n._x = x
            _events.set_listener(old)
        return out, None

    def on_node_apply(self, node, grads_in: tuple, grads_out: tuple) -> None:
        window = self._window
        if len(window) > self._window_cap:  # also once dead or light (the cap is -1)
            if self._light and not self._closing:
                self._light_applies += 1
                return
            if self._dead or not self._light_settles("node_apply"):
                return
            window = self._window
        try:
            nid = self._nids.get(node._uid)
            if nid is None:
                return  # a node no event introduced; the picture cannot draw it
            active = self._active
            if active is not None:
                line, k = self._bw_line, active[0]
            else:
                line, k = self._where()[0], self._passes - 1
            tids, cap = self._tids, self._copy_max
            rec: tuple
            s_out: Any
            # Each gradient on the node's edges is (*snapshot, tid or None), or None where none
            # flows. The usual node (one gradient in, one or two out) makes its record in one
            # go, written out: in Python 3.11 a helper call, a list or a starred tuple display
            # each costs about a twentieth of this event, and every node of every pass makes one.
            if len(grads_in) == 1 and 0 < len(grads_out) < 3:
                g = grads_in[0]
                last = self._last_grad
                if type(g) is not Tensor:
                    s_in = None
                elif (last is not None and g._uid == last[1] and window
                      and window[-1] is last[0] and g._vc[0] == last[2] and node._x is None):
                    s_in = last[3]  # NOTE [a gradient handed on]
                else:
                    a, fn = g._data, g.grad_fn
                    s_in = (a.tobytes() if a.size <= cap else None, a.shape, a.dtype, g._rg,
                            None if fn is None else type(fn).__name__, tids.get(g._uid))
                g = grads_out[0]
                if type(g) is Tensor:
                    a, fn = g._data, g.grad_fn
                    s_out = (a.tobytes() if a.size <= cap else None, a.shape, a.dtype, g._rg,
                             None if fn is None else type(fn).__name__, tids.get(g._uid))
                else:
                    s_out = None
                if len(grads_out) == 1:
                    rec = ("node_apply", line, k, nid, node, 1, s_in, s_out)
                else:
                    rec = ("node_apply", line, k, nid, node, 1, s_in, s_out,
                           _grad_snap(grads_out[1], tids, cap))
            else:
                rec = ("node_apply", line, k, nid, node, len(grads_in),
                       *[_grad_snap(g, tids, cap) for g in grads_in],
                       *[_grad_snap(g, tids, cap) for g in grads_out])
                s_out = rec[6 + len(grads_in)] if grads_out else None
                g = grads_out[0] if grads_out else None
            window.append(rec)
            self._last_grad = (rec, g._uid, g._vc[0], s_out) if type(g) is Tensor else None
            if self._local_ok and len(grads_in) == 1:
                self._note_local(rec, node, grads_in[0], grads_out)
        except Exception as exc:  # see Recorder._fail
            self._fail(exc)

    def on_accumulate(self, tensor, before, added, after) -> None:
        line = self._bw_line if self._active is not None else self._where()[0]
        tid = self._tid(tensor, line)
        acc = tensor._acc
        nid = self._nids.get(acc._uid) if acc is not None and tensor.grad_fn is None else None
        self._track_grad(tid, after)
        waiting = self._jac_after
        if waiting is not None and added is not None and self._active is not None:
            waiting["added"][tid] = np.asarray(added._data, dtype=np.float64).ravel().tolist()
        self._window.append(("accumulate", line, self._pass(), tid, nid,
                             None if before is None else self._snap(before), self._snap(added),
                             self._snap(after)))

    def _track_grad(self, tid: str, grad) -> None:
        ref = self._grad_obj.pop(tid, None)
        old = ref() if ref is not None else None
        if old is not None:
            self._grad_of.pop(id(old), None)
        if grad is not None:
            ref = self._grad_obj[tid] = weakref.ref(grad)
            self._grad_of[id(grad)] = (tid, ref)

    def _is_grad(self, t) -> bool:
        entry = self._grad_of.get(id(t))
        return entry is not None and entry[1]() is t

    def _pass(self) -> int:
        return self._active[0] if self._active else max(self._passes - 1, 0)

    def on_graph_freed(self, nodes: tuple) -> None:
        line = self._bw_line if self._active is not None else self._where()[0]
        # in C (a pass frees every node of its graph): the ids of the nodes that have one
        ids = list(map(self._nids.get, map(_uid_of, nodes)))
        if None in ids:
            ids = [i for i in ids if i is not None]
        self._window.append(("graph_freed", line, self._pass(), ids))

    def on_backward_end(self, api: str) -> None:
        line = self._bw_line if self._active is not None else self._where()[0]
        self._window.append(("backward_end", line, self._pass(), api))
        waiting, self._jac_after = self._jac_after, None
        if waiting is not None:
            self._fill_jacobian(waiting)
        self._last_grad = None  # the reuse is within a pass (NOTE [a gradient handed on])
        outer = self._outer_passes.pop() if self._outer_passes else None
        if outer is not None:
            self._active, self._bw_frame, self._bw_line, self._local_ok = outer
            return
        self._active = None
        self._local_ok = False
        # The window closes at the next event that is not an optimizer step, so that
        # `loss.backward(); optimizer.step()` stays one iteration (see _settle).
        self._closing = True

    def on_grad_reset(self, tensor, how: str) -> None:
        line, _, _ = self._where()
        self._settle()
        start = len(self._window)
        tid = self._tid(tensor, line)
        g = tensor._grad
        self._track_grad(tid, g)
        self._window.append(("grad_reset", line, tid, how, None if g is None else self._snap(g)))
        if self._lib_fn is not None:
            self._mark_library_fn(start)

    def on_optimizer_step(self, optimizer, params, before, after) -> None:
        line, _, _ = self._where()
        try:
            lr = float(optimizer.param_groups[0]["lr"])
        except (AttributeError, IndexError, KeyError, TypeError, ValueError):
            lr = None
        try:    # SGD's rule changes with momentum: the page says which rule ran
            momentum = float(optimizer.param_groups[0].get("momentum") or 0.0)
        except (AttributeError, IndexError, TypeError, ValueError):
            momentum = 0.0
        rows = [(self._tid(p, line), _array_snap(b, p), _array_snap(a, p))
                for p, b, a in zip(params, before, after)]
        self._window.append(("optimizer_step", line, type(optimizer).__name__, lr, rows,
                             momentum))


def _saves_tensors(node) -> bool:
    """Whether this node saved a tensor (freeable), not just sizes or scalars: the engine
    records a version exactly for each saved tensor (graph.Node.free)."""
    versions = getattr(node, "_versions", None)
    if versions is not None:
        return any(v is not None for v in versions)
    return bool(getattr(type(node), "_tensor_saves", None))


def _program_hooks(nodes, leaves) -> bool:
    """Whether the program hooked any of these nodes, the tensors they make or the leaves
    (the engine's own hooks, such as those unpacking saved tensors, change no gradient)."""
    def hooked(fns) -> bool:
        return any(not is_engine_module(getattr(h, "__module__", None) or "") for h in fns)
    for n in nodes:
        x = n._x
        if x and (hooked(x.get("hooks", ())) or hooked(x.get("prehooks", ()))
                  or any(t._x and hooked(t._x.get("hooks", ())) for _, t in x.get("tensors", ()))):
            return True
    return any(t._x and hooked(t._x.get("hooks", ())) for t in leaves)


def _walk(roots, max_nodes: int) -> tuple:
    """(leaves in discovery order, all nodes, why J must not be computed or None): a graph of
    more than `max_nodes` nodes is "graph_too_big" (its other checks are skipped), one whose
    backward would run the program's own code is "program_code" (runs_program_code)."""
    nodes = _graph_nodes(roots)
    if len(nodes) > max_nodes:  # too many for J: its checks would decide nothing
        return _leaves_of(nodes), nodes, "graph_too_big"
    if any(map(runs_program_code, nodes)):
        return _leaves_of(nodes), nodes, "program_code"
    return _leaves_of(nodes), nodes, None


def _graph_nodes(roots) -> list:
    """Every node reachable from the roots, breadth first (iterative: graphs can be deep)."""
    out = [r.grad_fn for r in roots if r.grad_fn is not None]
    # the nodes themselves: they hash by identity, and all are alive meanwhile. None is "seen"
    # from the start, which spares a test per edge (every pass of a traced run walks this).
    seen = set(out)
    seen.add(None)
    for n in out:  # the list is the queue: the loop meets what it appends, in order
        for nxt in n._fns:     # next_functions' nodes (NOTE [edges without tuples])
            if nxt not in seen:
                seen.add(nxt)
                out.append(nxt)
    return out


def _graph_leaves(roots) -> list:
    """The leaves `_walk` would give, in the same order, without its other checks."""
    return _leaves_of(_graph_nodes(roots))


def _leaves_of(nodes: list) -> list:
    """The variables of the AccumulateGrad nodes among `nodes`, each once, in their order."""
    leaves, seen_leaf = [], set()
    for n in filter(_is_acc, nodes):  # the test in C: most nodes of a large graph are ops
        v = n.variable
        if v._uid not in seen_leaf:
            seen_leaf.add(v._uid)
            leaves.append(v)
    return leaves


_uid_of = attrgetter("_uid")
_is_acc = AccumulateGrad.__instancecheck__  # isinstance(n, AccumulateGrad), as a C function


def _tensor_from(arr: np.ndarray) -> Tensor:
    from gradstep.engine.tensor import new_tensor
    return new_tensor(arr)


def _grad_snap(g, tids: dict, cap: int) -> tuple | None:
    """A gradient on a node's edge in a node_apply record: (*snapshot, tid or None), or None
    where no gradient flows."""
    if type(g) is not Tensor:
        return None
    a, fn = g._data, g.grad_fn
    return (a.tobytes() if a.size <= cap else None, a.shape, a.dtype, g._rg,
            None if fn is None else type(fn).__name__, tids.get(g._uid))


def _ones_snap(root: Tensor) -> Snap:
    a = np.ones(root._data.shape, dtype=root._data.dtype)
    return (a.tobytes(), a.shape, a.dtype, False, None)


def _array_snap(a, p: Tensor) -> Snap:
    a = np.asarray(a)
    return (a.tobytes(), a.shape, a.dtype, p._rg, None)
