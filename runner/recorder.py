"""The recorder: an engine listener that turns a run into a trace (docs/trace-format.md).

Like Python Tutor's `pg_logger`, but it watches autograd instead of the interpreter: the engine
reports tensors, ops and backward steps through `engine._events`, and the recorder gives them
stable ids, the user's line and variable names, and renders values. Recording is cheap (ids,
the line, the bytes of small arrays); turning records into events, elision and the byte cap
happen once, in `finish()`, by `runner/trace_build.py`.

Example:
    >>> import engine as torch
    >>> from engine import _events
    >>> src = "x = torch.ones(2, requires_grad=True)\\n(x * 3).sum().backward()\\n"
    >>> rec = Recorder(src, "main.py")
    >>> old = _events.set_listener(rec)
    >>> exec(compile(src, "main.py", "exec"), {"torch": torch})
    >>> _ = _events.set_listener(old)
    >>> trace = rec.finish(0)
    >>> [e["kind"] for e in trace["events"]][:3]
    ['tensor', 'op', 'op']
"""
from __future__ import annotations

import sys
import warnings
import weakref
from collections import deque
from typing import Any

import numpy as np

from engine import _events
from engine.autograd.function import BackwardCFunction as _CustomNode
from engine.graph import AccumulateGrad
from engine.grad_mode import state as _grad_state
from engine.tensor import Tensor

from . import trace as T
from .trace_build import Builder, Summary, failure_event, gc_paused, num

_getframe = sys._getframe
_ENGINE_DIR = _events.__file__.rsplit("/", 1)[0].rsplit("\\", 1)[0]
# Ops run by these engine files are bookkeeping the picture shows through its own events
# (optimizer_step, grad_reset), not steps of the learner's program.
_QUIET_DIRS = tuple(_ENGINE_DIR + sep + "optim" for sep in ("/", "\\"))

# A value snapshot taken at event time: (the array's bytes or None, shape, numpy dtype,
# requires_grad, grad_fn name or None). Bytes rather than an array copy: cheaper to take, and
# invisible to the garbage collector, which otherwise rescans every record on each collection.
# Rendered to a `value` dict in finish().
Snap = tuple

# NOTE [ids made ahead]
# Tensor and node ids are "t0", "t1", ... and "n0", "n1", ... in the order first seen. Every op
# gives one or two new ids, and formatting the number is a large part of what an op record
# costs, so the strings are made in blocks (here, at import, which a forked sandbox child
# inherits) and picked by index: _T_IDS[k] == f"t{k}".
_T_IDS: list[str] = []
_N_IDS: list[str] = []


def _more_ids(ids: list, prefix: str, k: int) -> str:
    """ids[k] after growing `ids` (the id strings of `prefix`) to more than k entries."""
    ids.extend([f"{prefix}{i}" for i in range(len(ids), max(k + 1, 2 * len(ids), 2048))])
    return ids[k]


_more_ids(_T_IDS, "t", 0), _more_ids(_N_IDS, "n", 0)

# NOTE [pending names]
# The latest 16 new tensors wait in `_pending` for `_scan` to name them: older temporaries
# never get a name. Forgetting the oldest on every op is a dict deletion per op; instead
# the dict may hold up to 32 and is cut to its newest 16 before anything reads it
# (`_trim_pending`). Keys are the ids of the live tensors the entries hold, so they never
# collide, and cutting to the newest 16 later leaves the same entries as cutting at every
# insertion. Outputs too large for a snapshot are cut at once, so that no more of them are
# held than before.
_PENDING = 16

# NOTE [op records]
# The hottest records are flat tuples, since each nested tuple is one more object for the
# garbage collector (runner/trace_build.py reads them):
#   op:    ("op", line, op name, input ids, output id, grad_fn id, node, node's saves,
#           new_nodes, grad mode, in_backward, *snapshot of the output, tensor ids so far)
# "Tensor ids so far" (also last in inplace records) bounds the tensor ids the event's nodes
# may name: a saved tensor or a leaf that gets its id later (it shows up in a print, or
# through `_saved_other`) is described by value there, never by an id defined after it.
#   an edge gradient in node_apply: (*snapshot, tid or None), or None where none flows


class Recorder(_events.Listener):
    """Listen to the engine while a program runs; `finish()` returns the trace dict.

    `limits` overrides keys of `runner.trace.DEFAULT_LIMITS`: a dict of those keys, or an object
    such as the sandbox's `Limits`, read through attributes named `max_trace_<x>` for
    `max_<x>` keys (`max_trace_events`) or `trace_<key>` for the others.
    """

    def __init__(self, source: str, filename: str, limits: Any = None) -> None:
        self.source, self.filename = source, filename
        self.limits = _coerce_limits(limits)
        self._copy_max = self.limits["repr_max_numel"]
        self._tids: dict[int, str] = {}      # Tensor._uid -> "tK"
        self._rg: dict[int, bool] = {}       # Tensor._uid -> requires_grad as last described
        self._nids: dict[int, str] = {}      # Node._uid -> "nK"
        self._names: dict[str, str] = {}     # "tK" -> user variable name
        self._pending: dict[int, tuple] = {}  # id(tensor) -> (tid, tensor), not yet named
        self._globals: dict | None = None    # the user module's namespace, scanned at the end
        self._file_kind: dict[str, int] = {}  # co_filename -> 0 other, 1 user, 2 quiet
        # The tensors that are some leaf's .grad, held weakly (a .grad keeps its leaf alive):
        self._grad_of: dict[int, tuple] = {}  # id(grad) -> (owner tid, weakref to grad)
        self._grad_obj: dict[str, Any] = {}   # owner tid -> weakref to its grad
        self._window: list = []              # raw records since the last pass ended
        # NOTE [window cap]: records of one window past the event cap can never be rendered
        # (the window's own index already exceeds it), so past it ops, tensors and node
        # applications are only counted: a loop without backward keeps bounded memory
        self._window_cap = self.limits["max_events"]
        self._head: list[list] = []          # the first detail_head windows
        self._tail: deque = deque()          # the latest detail_tail windows
        self._elided: Summary | None = None
        self._passes = 0
        self._active: tuple | None = None    # (pass, roots, create_graph) while backward runs
        self._series: list[list] = []        # [pass, scalar root value]
        self._printed: list[list] = []       # [line, text] per print chunk
        self._last_stdout: list | None = None
        self._ops = 0
        self._bw_frame = None                # the engine frame the user called backward through
        self._bw_line = None
        self._scan_frame = None
        self._scan_line = None
        self._dead = False                   # set by _fail(): record only the console
        self._closing = False                # a pass ended; its window closes soon
        self._builder: Builder | None = None  # finish()'s, which dump() reuses

    # ---- ids, lines, names --------------------------------------------------------------------
    def _where(self) -> tuple:
        """(user line or None, the user frame, whether an engine-internal file called us)."""
        f = _getframe(2)
        if self._active is not None:
            return self._where_in_pass(f)
        kinds = self._file_kind
        quiet = False
        while f is not None:
            k = kinds.get(f.f_code.co_filename)
            if k is None:
                k = self._classify(f.f_code.co_filename)
            if k == 1:
                return f.f_lineno, f, quiet
            if k == 2:
                quiet = True
            f = f.f_back
        return None, None, quiet

    def _classify(self, fn: str) -> int:
        k = self._file_kind[fn] = (1 if fn == self.filename else
                                   2 if fn.startswith(_QUIET_DIRS) else 0)
        return k

    def _where_in_pass(self, f) -> tuple:
        """_where while a backward pass is active, also checking that the engine call which
        started the pass is still on the stack: the engine reports no end for a pass that
        raised, and learners catch the freed-buffer error and go on."""
        kinds = self._file_kind
        quiet = False
        bw = self._bw_frame
        while f is not None:
            k = kinds.get(f.f_code.co_filename)
            if k is None:
                k = self._classify(f.f_code.co_filename)
            if k == 1:
                break
            if k == 2:
                quiet = True
            if f is bw:
                bw = None
            f = f.f_back
        if bw is not None:
            # a hook or custom Function written by the user runs inside the pass: look on
            g = f
            while g is not None and g is not bw:
                g = g.f_back
            if g is None:
                self._abandon_pass()
        if f is None:
            return None, None, quiet
        return f.f_lineno, f, quiet

    def _inner_frame(self):
        """The outermost non-user frame below the user's: the engine call the user made."""
        f = _getframe(2)
        inner = None
        while f is not None and f.f_code.co_filename != self.filename:
            inner = f
            f = f.f_back
        return inner

    def _abandon_pass(self) -> None:
        """Close a pass whose backward raised and was caught: record the error it raised."""
        exc = sys.exc_info()[1]
        self._bw_frame = None
        if exc is None:
            self._active = None
            self._close_window()
            return
        self.error(type(exc).__name__, str(exc), self._bw_line, "exception", caught=True)

    def _maybe_scan(self, frame, line) -> None:
        if frame is not self._scan_frame or line != self._scan_line:
            self._scan(frame, line)

    def _scan(self, frame, line) -> None:
        """Name pending tensors after the user variables now bound to them (see the docs).

        Scanning a frame's variables costs more than recording an event, so this runs only
        when the program moved to another line or frame: the assignment of the last result has
        happened by then. `y = y * 2` repeated on one line names only the last `y`.
        """
        self._scan_frame, self._scan_line = frame, line
        if self._globals is None and frame.f_code.co_name == "<module>":
            self._globals = frame.f_globals
        pending = self._pending
        if len(pending) > _PENDING:
            self._trim_pending()
        for name, value in frame.f_locals.items():
            entry = pending.get(id(value))
            if entry is not None and entry[1] is value and name[:1] != "_":
                self._names.setdefault(entry[0], name)
                del pending[id(value)]
                if not pending:
                    return

    def _new_tid(self, t: Tensor) -> str:
        tids = self._tids
        k = len(tids)
        tid = tids[t._uid] = _T_IDS[k] if k < len(_T_IDS) else _more_ids(_T_IDS, "t", k)
        self._rg[t._uid] = t._rg
        pending = self._pending
        pending[id(t)] = (tid, t)
        if len(pending) > _PENDING:  # temporaries never get a name: forget the oldest
            self._trim_pending()
        return tid

    def _trim_pending(self) -> None:
        """Keep the newest 16 entries of `_pending` (NOTE [pending names])."""
        pending = self._pending
        over = len(pending) - _PENDING
        if over > 0:
            for key in list(pending)[:over]:
                del pending[key]

    def _tid(self, t: Tensor, line) -> str:
        """The id of `t`, registering it (a `tensor` record) if the engine never reported it,
        or re-describing it if its requires_grad changed silently (`requires_grad_()`)."""
        tid = self._tids.get(t._uid)
        if tid is not None and self._rg.get(t._uid) is not t._rg and t.grad_fn is None:
            self._rg[t._uid] = t._rg
            self._window.append(("tensor", line, tid, self._snap_tensor(t), "requires_grad_",
                                 _grad_state.enabled, None))
        if tid is None:
            tid = self._new_tid(t)
            owner = self._grad_of.get(id(t))
            how = ("grad" if owner is not None and owner[1]() is t else
                   "backward" if self._active is not None else "constant")
            self._window.append(("tensor", line, tid, self._snap_tensor(t), how,
                                 _grad_state.enabled, owner[0] if how == "grad" else None))
        return tid

    def _nid(self, node) -> tuple:
        """(id, is_new) for a graph node."""
        nid = self._nids.get(node._uid)
        if nid is None:
            k = len(self._nids)
            nid = self._nids[node._uid] = _N_IDS[k] if k < len(_N_IDS) else _more_ids(
                _N_IDS, "n", k)
            return nid, True
        return nid, False

    def _snap(self, t: Tensor) -> Snap:
        a = t._data
        fn = t.grad_fn
        return (a.tobytes() if a.size <= self._copy_max else None, a.shape, a.dtype, t._rg,
                type(fn).__name__ if fn is not None else None)

    def _snap_tensor(self, t: Tensor) -> tuple:
        fn = t.grad_fn
        return (self._snap(t), self._nids.get(fn._uid) if fn is not None else None)

    # ---- forward events -------------------------------------------------------------------
    def on_tensor(self, tensor, how: str) -> None:
        if self._active is not None and not self._active[2]:
            return  # made by the engine inside a backward pass (see on_op)
        line, frame, quiet = self._where()
        if quiet or self._active is not None:
            return
        if self._closing:
            self._settle()
        if self._pending and frame is not None:
            self._maybe_scan(frame, line)
        if len(self._window) > self._window_cap:
            self._count_past_cap("tensor")
            return
        tid = self._tids.get(tensor._uid) or self._new_tid(tensor)
        self._rg[tensor._uid] = tensor._rg
        self._window.append(("tensor", line, tid, self._snap_tensor(tensor), how,
                             _grad_state.enabled, None))

    def on_op(self, op_name: str, inputs: tuple, output, node) -> None:
        if self._dead:
            return
        if len(self._window) > self._window_cap:
            self._count_past_cap("op")
            return
        try:
            active = self._active
            if active is None:
                # _where, written out: this is the hottest call of a traced run, and the walk
                # to the user's frame is most of its cost
                # from the caller of the op's apply: on_op's own caller is always the engine
                f = _getframe(2)
                kinds = self._file_kind
                quiet = False
                while f is not None:
                    k = kinds.get(f.f_code.co_filename)
                    if k is None:
                        k = self._classify(f.f_code.co_filename)
                    if k == 1:
                        break
                    if k == 2:
                        quiet = True
                    f = f.f_back
                if quiet:
                    return  # optimizer.step() internals
                frame, line = f, (f.f_lineno if f is not None else None)
            else:
                if node is None or not active[2]:
                    # The engine's own arithmetic inside backward: return before the stack
                    # walk. (A pass that raised and was caught is noticed at the next event
                    # that does walk the stack.)
                    return
                line, frame, quiet = self._where_in_pass(_getframe(1))
                active = self._active
                if quiet or (active is not None and (node is None or not active[2])):
                    return  # optimizer.step() internals, or a pass closed by _where_in_pass
            if node is None and self._is_grad(output) and any(t is output for t in inputs):
                return  # in-place work on a .grad (zero_()): the grad_reset event tells it
            if self._closing:
                self._settle()
            if self._pending and frame is not None and (
                    frame is not self._scan_frame or line != self._scan_line):
                self._scan(frame, line)
            tids, rgs = self._tids, self._rg
            # Most inputs already have an id and are described as they are now; anything else
            # (a wrapped Python number, a tensor never seen, requires_grad_()) takes the loop.
            n_in = len(inputs)
            if n_in == 2:
                t0, t1 = inputs
                i0, i1 = tids.get(t0._uid), tids.get(t1._uid)
                if i0 is None or rgs.get(t0._uid) is not t0._rg:
                    ins = self._input_ids(inputs, line, active)
                elif i1 is not None and rgs.get(t1._uid) is t1._rg:
                    ins = (i0, i1)
                elif (i1 is None and not t1._rg and active is None and t1._data.ndim == 0
                      and id(t1) not in self._grad_of):
                    ins = (i0, t1._data.item())  # `y * 2`: see _input_ids
                else:
                    ins = self._input_ids(inputs, line, active)
            elif n_in == 1:
                t0 = inputs[0]
                i0 = tids.get(t0._uid)
                if i0 is None or rgs.get(t0._uid) is not t0._rg:
                    ins = self._input_ids(inputs, line, active)
                else:
                    ins = (i0,)
            else:
                ins = self._input_ids(inputs, line, active)
            nids = self._nids
            fn_id = None
            new_nodes = ()
            if node is not None:
                fn_id = nids.get(node._uid)
                if fn_id is None:
                    k = len(nids)
                    fn_id = nids[node._uid] = _N_IDS[k] if k < len(_N_IDS) else _more_ids(
                        _N_IDS, "n", k)
                for nxt, _ in node.next_functions:
                    if nxt is not None and nxt._uid not in nids:
                        new_nodes += self._discover(nxt)
                fn_name = node.__class__.__name__
            else:
                fn = output.grad_fn
                fn_name = None
                if fn is not None:
                    fn_id, fn_name = nids.get(fn._uid), type(fn).__name__
            uid = output._uid
            rgs[uid] = rg = output._rg
            out_id = tids.get(uid)
            a = output._data
            small = a.size <= self._copy_max
            if out_id is None:  # _new_tid, written out
                k = len(tids)
                out_id = tids[uid] = _T_IDS[k] if k < len(_T_IDS) else _more_ids(_T_IDS, "t", k)
                pending = self._pending
                pending[id(output)] = (out_id, output)
                if not (small and k & 15):  # NOTE [pending names]: at most 32, or 16 large
                    self._trim_pending()
            self._ops += 1
            # one flat record (layout in NOTE [op records]): every extra tuple per op is more
            # work for the garbage collector, which a traced run already keeps busy
            self._window.append(("op", line, op_name, ins, out_id, fn_id,
                                 node, node._saved if node is not None else (), new_nodes,
                                 _grad_state.enabled, active is not None,
                                 a.tobytes() if small else None, a.shape,
                                 a.dtype, rg, fn_name, len(tids)))
        except Exception as exc:  # noqa: BLE001 - see Recorder._fail
            self._fail(exc)

    def _input_ids(self, inputs: tuple, line, active) -> tuple:
        """Each input's id, or the number for a Python scalar the engine wrapped."""
        tids, rgs = self._tids, self._rg
        ins = []
        for t in inputs:
            tid = tids.get(t._uid)
            if tid is not None and rgs.get(t._uid) is t._rg:
                ins.append(tid)
            elif (tid is None and t._data.ndim == 0 and not t._rg and active is None
                  and not self._is_grad(t)):
                # a Python number the engine wrapped (the 2 in `y * 2`): an inline constant,
                # as PyTorch's graph has no node for it either
                ins.append(t._data.item())
            else:
                ins.append(self._tid(t, line))
        return tuple(ins)

    def _introduce(self, node) -> tuple:
        """Give `node` an id; return the nodes behind it met for the first time (with saves)."""
        self._nid(node)
        new = ()
        for nxt, _ in node.next_functions:
            if nxt is not None and nxt._uid not in self._nids:
                new += self._discover(nxt)
        return new

    def _discover(self, start) -> tuple:
        """`start`, met for the first time, and every node behind it not met yet, each given
        an id and returned with its saves, depth first in edge order.

        Usually `start` is a leaf's AccumulateGrad and the only one. But the engine also
        links nodes no op event reports: an in-place op on a view rebases the graph onto a
        CopySlices behind the view's new AsStridedBackward0, so an event that introduced only
        the first new node would name the next ones before any event defines them.
        """
        nids, found, stack = self._nids, [], [start]
        while stack:            # explicit stack: such chains can be long
            node = stack.pop()
            if node._uid in nids:
                continue
            k = len(nids)
            nids[node._uid] = _N_IDS[k] if k < len(_N_IDS) else _more_ids(_N_IDS, "n", k)
            found.append((node, node._saved))
            stack.extend(nxt for nxt, _ in reversed(node.next_functions)
                         if nxt is not None and nxt._uid not in nids)
        return tuple(found)

    def on_inplace(self, tensor, op_name: str, version: int) -> None:
        line, frame, quiet = self._where()
        if quiet or self._active is not None or self._is_grad(tensor):
            return
        self._settle()
        tid = self._tid(tensor, line)
        fn = tensor.grad_fn
        node, new_nodes = None, ()
        if fn is not None and fn._uid not in self._nids:
            # the in-place op attached a node no op event introduced (CopySlices)
            node, new_nodes = (fn, fn._saved), self._introduce(fn)
        self._window.append(("inplace", line, tid, op_name, version, self._snap(tensor),
                             self._nids.get(fn._uid) if fn is not None else None, node,
                             new_nodes, len(self._tids)))

    def on_grad_mode(self, enabled: bool, mode: str) -> None:
        line, _, quiet = self._where()
        if not quiet and self._active is None:
            self._settle()
            self._window.append(("grad_mode", line, enabled, mode))

    # ---- backward events ------------------------------------------------------------------
    def on_backward_begin(self, roots, grad_tensors, retain_graph, create_graph, inputs,
                          api) -> None:
        line, _, _ = self._where()
        self._settle()
        k = self._passes
        self._passes += 1
        root_ids = [self._tid(r, line) for r in roots]
        # For a scalar root J is one row, the very gradient the pass accumulates; after the
        # first passes (a training loop's) it would only double the cost of backward. Such a
        # pass needs only its leaves from the graph, not the checks that guard J.
        scalar_late = k >= self.limits["detail_head"] and all(r._data.size == 1 for r in roots)
        if scalar_late:
            leaves, nodes, unsafe = _graph_leaves(roots) if inputs is None else [], (), True
        else:
            leaves, nodes, unsafe = _walk(roots, self.limits["jacobian_max_nodes"])
        if inputs is not None:  # backward(inputs=...) / autograd.grad: only these get grads
            leaves = list(inputs)
        leaf_ids = [self._tid(t, line) for t in leaves]
        seeds = [s if isinstance(s, Tensor) else None for s in grad_tensors]
        implicit = all(s is None or (s._uid not in self._tids and s._data.size == 1)
                       for s in seeds)
        jac = None
        if not unsafe and len(nodes) <= self.limits["jacobian_max_nodes"]:
            jac = self._jacobian(roots, seeds, leaves, root_ids, leaf_ids)
        first = roots[0]._data if roots else None
        if first is not None and first.size == 1:
            self._series.append([k, num(first.reshape(()).item(), self.limits["digits"])])
        self._window.append(("backward_begin", line, k, api, root_ids,
                             [self._snap(r) for r in roots],
                             [self._snap(s) if s is not None else _ones_snap(r)
                              for s, r in zip(seeds, roots)],
                             implicit, bool(retain_graph), bool(create_graph),
                             None if inputs is None else [self._tid(t, line) for t in inputs],
                             leaf_ids, jac))
        self._active = (k, tuple(roots), bool(create_graph))
        self._bw_frame, self._bw_line = self._inner_frame(), line

    def _jacobian(self, roots, seeds, leaves, root_ids, leaf_ids) -> list | None:
        """J of each root w.r.t. each leaf, by one-hot vector-Jacobian products.

        Runs unobserved and retains the graph, so the program's state (every .grad, the saved
        buffers, the counters behind ids) is exactly as if it had not been computed.
        """
        cap = self.limits["jacobian_max_numel"]
        if not leaves or any(r._data.size > cap for r in roots) or any(
                t._data.size > cap for t in leaves):
            return None
        if any(n._freed for n in _graph_nodes(roots)):
            return None
        from engine import autograd
        digits = self.limits["digits"]
        out = []
        old = _events.set_listener(None)
        try:
            with warnings.catch_warnings():
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
        except Exception:  # noqa: BLE001 - J is an illustration; never let it break a run
            return None
        finally:
            _events.set_listener(old)
        return out

    def on_node_apply(self, node, grads_in: tuple, grads_out: tuple) -> None:
        if self._dead:
            return
        if len(self._window) > self._window_cap:
            self._count_past_cap("node_apply")
            return
        try:
            active = self._active
            nid = self._nids.get(node._uid)
            if nid is None:
                return  # a node no event introduced; the picture cannot draw it
            line = self._bw_line if active is not None else self._where()[0]
            tids, cap = self._tids, self._copy_max
            self._window.append(("node_apply", line, active[0] if active else self._passes - 1,
                                 nid, node, _edge_snaps(grads_in, tids, cap),
                                 _edge_snaps(grads_out, tids, cap)))
        except Exception as exc:  # noqa: BLE001 - see Recorder._fail
            self._fail(exc)

    def on_accumulate(self, tensor, before, added, after) -> None:
        line = self._bw_line if self._active is not None else self._where()[0]
        tid = self._tid(tensor, line)
        acc = tensor._acc
        nid = self._nids.get(acc._uid) if acc is not None and tensor.grad_fn is None else None
        self._track_grad(tid, after)
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
        ids = [self._nids[n._uid] for n in nodes if n._uid in self._nids]
        self._window.append(("graph_freed", line, self._pass(), ids))

    def on_backward_end(self, api: str) -> None:
        line = self._bw_line if self._active is not None else self._where()[0]
        self._window.append(("backward_end", line, self._pass(), api))
        self._active = None
        # The window closes at the next event that is not an optimizer step, so that
        # `loss.backward(); optimizer.step()` stays one iteration (see _settle).
        self._closing = True

    def _settle(self) -> None:
        if self._closing:
            self._closing = False
            self._close_window()

    def on_grad_reset(self, tensor, how: str) -> None:
        line, _, _ = self._where()
        self._settle()
        tid = self._tid(tensor, line)
        g = tensor._grad
        self._track_grad(tid, g)
        self._window.append(("grad_reset", line, tid, how, None if g is None else self._snap(g)))

    def on_optimizer_step(self, optimizer, params, before, after) -> None:
        line, _, _ = self._where()
        try:
            lr = float(optimizer.param_groups[0]["lr"])
        except (AttributeError, IndexError, KeyError, TypeError, ValueError):
            lr = None
        rows = [(self._tid(p, line), _array_snap(b, p), _array_snap(a, p))
                for p, b, a in zip(params, before, after)]
        self._window.append(("optimizer_step", line, type(optimizer).__name__, lr, rows))

    def on_warning(self, category: str, message: str) -> None:
        # The console shows the warnings Python displayed (filters, once per location), which
        # the runner reports through warning(); the engine's every-time hook would duplicate.
        pass

    # ---- called by the runner ---------------------------------------------------------------
    def stdout(self, text: str) -> None:
        """The program wrote `text` to stdout (print calls write twice: merge per line)."""
        if not text:
            return
        line, frame, _ = self._where()
        self._settle()
        last = self._last_stdout
        if last is not None and self._window and self._window[-1] is last and last[1] == line:
            last[2] += text
            self._printed[-1][1] += text
            return
        rec = ["stdout", line, text]
        self._window.append(rec)
        self._last_stdout = rec
        self._printed.append([line, text])

    def warning(self, category_name: str, message: str, line: int | None) -> None:
        """Python displayed a warning (category name, PyTorch's message, user line)."""
        self._settle()
        self._window.append(("warning", line, category_name, message))

    def error(self, type_name: str, message: str, line: int | None, kind: str = "exception",
              *, caught: bool = False) -> None:
        """The program stopped with an error (uncaught exception, refusal, limit, crash).

        `caught` marks an error raised by a backward pass that the program caught and went on.
        """
        node = None
        k = None
        self._settle()
        if self._active is not None:
            k = self._active[0]
            for n in _graph_nodes(self._active[1]):
                if n._freed and n._uid in self._nids and _saves_tensors(n):
                    node = self._nids[n._uid]
                    break
            self._active = None
            self._bw_frame = None
        self._window.append(("error", line, type_name, message, kind, node, k, caught))
        if k is not None:
            self._close_window()

    def finish(self, exit_code: int, check: bool = False) -> dict:
        """The trace of the run so far; the recorder should not be used after.

        `check=True` also validates it (the tests and the fixture script do; a run does not
        pay for it, since validating costs more than recording).
        """
        if self._active is not None:  # a backward that raised without error() being called
            self._active = None
        self._settle()
        try:
            if self._globals is not None and self._pending:
                self._trim_pending()
                self._scan_globals()
            self._builder = Builder(self)
            with gc_paused():
                return self._builder.build(exit_code, check)
        except Exception as exc:  # noqa: BLE001 - still give the console and the error
            if check:
                raise
            return self._fallback(exit_code, exc)

    def dump(self, trace: dict) -> bytes:
        """`runner.trace.dump(trace)` of the trace finish() returned, without encoding its
        events again: the text each was sized with is reused (NOTE [events encoded once])."""
        builder = self._builder
        return T.dump(trace, builder.event_text if builder is not None else T.dump_event)

    def _count_past_cap(self, kind: str) -> None:
        """Count an event past the window cap (NOTE [window cap]) in the window's last
        `overflow` record: ("overflow", None, {kind: count}), cut into the elided event."""
        if kind == "op":
            self._ops += 1
        last = self._window[-1]
        if last[0] != "overflow":
            last = ("overflow", None, {})
            self._window.append(last)
        counts = last[2]
        counts[kind] = counts.get(kind, 0) + 1

    def _fail(self, exc: BaseException) -> None:
        """A bug of ours met something unexpected: stop recording detail, keep the program
        running exactly as untraced, and say in the trace where the detail stops."""
        if self._dead:
            return
        self._dead = True
        self._active = None
        self._window.append(("failure", None, f"{type(exc).__name__}: {exc}"))

    def _fallback(self, exit_code: int, exc: BaseException) -> dict:
        """A trace with only the console, the error and the reason (when building failed)."""
        trace = T.new_trace(self.source, self.filename, self.limits)
        events = []
        records = [r for w in self._head for r in w] + [r for w in self._tail for r in w]
        for r in records + self._window:
            if r[0] == "stdout":
                events.append({"kind": "stdout", "line": r[1], "text": r[2]})
            elif r[0] == "warning":
                events.append({"kind": "warning", "line": r[1], "category": r[2],
                               "message": r[3]})
            elif r[0] == "error":
                events.append({"kind": "error", "line": r[1], "type": r[2], "message": r[3],
                               "error_kind": r[4], "node": None, "pass": None})
        events.insert(0, failure_event(f"{type(exc).__name__}: {exc}"))
        events.append({"kind": "end", "line": None, "exit_code": int(exit_code),
                       "counts": {"events": len(events) + 1}})
        for i, e in enumerate(events):
            e["seq"] = i
        trace["events"], trace["truncated"] = events, True
        return trace

    def _scan_globals(self) -> None:
        pending = self._pending
        for name, value in list(self._globals.items()):
            entry = pending.get(id(value))
            if entry is not None and entry[1] is value and name[:1] != "_":
                self._names.setdefault(entry[0], name)
                del pending[id(value)]

    # ---- windows and elision ----------------------------------------------------------------
    def _close_window(self) -> None:
        window, self._window = self._window, []
        self._last_stdout = None
        if len(self._head) < self.limits["detail_head"]:
            self._head.append(window)
            return
        self._tail.append(window)
        if len(self._tail) > self.limits["detail_tail"]:
            if self._elided is None:
                self._elided = Summary(self.limits["detail_tail"])
            self._elided.absorb(self._tail.popleft())


def _guarded(method):
    """Run a listener method so that a recorder bug never changes what the program does."""
    def guarded(self, *args):
        if self._dead:
            return None
        try:
            return method(self, *args)
        except Exception as exc:  # noqa: BLE001 - see Recorder._fail
            self._fail(exc)
            return None
    guarded.__name__, guarded.__doc__ = method.__name__, method.__doc__
    return guarded


# on_op and on_node_apply, the hot ones, guard themselves inline
for _name in [n for n in vars(_events.Listener) if n.startswith("on_")
              and n not in ("on_op", "on_node_apply")]:
    setattr(Recorder, _name, _guarded(getattr(Recorder, _name)))


def _coerce_limits(limits: Any) -> dict:
    out = dict(T.DEFAULT_LIMITS)
    if limits is None:
        return out
    if isinstance(limits, dict):
        unknown = set(limits) - set(out)
        if unknown:
            raise ValueError(f"unknown trace limits: {sorted(unknown)}")
        out.update({k: int(v) for k, v in limits.items()})
        return out
    for key in out:  # an object such as the sandbox's Limits: max_trace_events, trace_digits
        alias = key.replace("max_", "max_trace_", 1) if key.startswith("max_") else None
        for attr in filter(None, (alias, "trace_" + key)):
            v = getattr(limits, attr, None)
            if isinstance(v, int) and not isinstance(v, bool):
                out[key] = v
                break
    return out


def _saves_tensors(node) -> bool:
    """Whether this node saved a tensor (freeable), not just sizes or scalars: the engine
    records a version exactly for each saved tensor (graph.Node.free)."""
    versions = getattr(node, "_versions", None)
    if versions is not None:
        return any(v is not None for v in versions)
    return bool(getattr(type(node), "_tensor_saves", None))


def _walk(roots, max_nodes: int) -> tuple:
    """(leaves in discovery order, all nodes, whether J must not be computed); a graph of more
    than `max_nodes` nodes gets no J, so its checks are skipped.

    J is skipped for custom autograd.Functions (their backward is user code) and for graphs
    with hooks or retain_grad(): autograd.grad would run the hooks (a print, twice) and fill
    the retained .grad, changing what the program sees.
    """
    nodes = _graph_nodes(roots)
    if len(nodes) > max_nodes:  # too many for J: its checks would decide nothing
        return _leaves_of(nodes), nodes, True
    leaves, seen_leaf = [], set()
    unsafe = False
    for n in nodes:
        x = n._x
        if x and (x.get("tensors") or x.get("hooks") or x.get("prehooks")):
            unsafe = True
        if isinstance(n, AccumulateGrad):
            v = n.variable
            if v._x and v._x.get("hooks"):
                unsafe = True
            if v._uid not in seen_leaf:
                seen_leaf.add(v._uid)
                leaves.append(v)
        elif isinstance(n, _CustomNode):
            unsafe = True
    return leaves, nodes, unsafe


def _graph_nodes(roots) -> list:
    """Every node reachable from the roots, breadth first (iterative: graphs can be deep)."""
    out = [r.grad_fn for r in roots if r.grad_fn is not None]
    seen = set(out)  # the nodes themselves: they hash by identity, and all are alive meanwhile
    for n in out:  # the list is the queue: the loop meets what it appends, in order
        for nxt, _ in n.next_functions:
            if nxt is not None and nxt not in seen:
                seen.add(nxt)
                out.append(nxt)
    return out


def _graph_leaves(roots) -> list:
    """The leaves `_walk` would give, in the same order, without its other checks."""
    return _leaves_of(_graph_nodes(roots))


def _leaves_of(nodes: list) -> list:
    """The variables of the AccumulateGrad nodes among `nodes`, each once, in their order."""
    leaves, seen_leaf = [], set()
    for n in nodes:
        if isinstance(n, AccumulateGrad):
            v = n.variable
            if v._uid not in seen_leaf:
                seen_leaf.add(v._uid)
                leaves.append(v)
    return leaves


def _edge_snaps(grads: tuple, tids: dict, cap: int) -> list:
    """(*snapshot, tid or None) of each gradient on a node's edges; None where none flows."""
    # one comprehension: a node_apply record is made for every node of every pass
    return [None if type(g) is not Tensor else
            (a.tobytes() if (a := g._data).size <= cap else None, a.shape, a.dtype, g._rg,
             None if (fn := g.grad_fn) is None else type(fn).__name__, tids.get(g._uid))
            for g in grads]


def _tensor_from(arr: np.ndarray) -> Tensor:
    from engine.tensor import new_tensor
    return new_tensor(arr)


def _ones_snap(root: Tensor) -> Snap:
    a = np.ones(root._data.shape, dtype=root._data.dtype)
    return (a.tobytes(), a.shape, a.dtype, False, None)


def _array_snap(a, p: Tensor) -> Snap:
    a = np.asarray(a)
    return (a.tobytes(), a.shape, a.dtype, p._rg, None)
