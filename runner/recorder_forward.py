"""The recorder's forward events: tensors made, ops run, in-place changes, grad mode.

The half of `runner/recorder.py`'s Recorder that the program's forward computation calls
(`engine._events`): `on_op` is the hottest call of a traced run. These methods read and write
the recorder's state (`Recorder.__init__`); the class is only a way to keep them in a file of
their own.
"""
from __future__ import annotations

import sys
from types import FrameType

from gradstep.engine.grad_mode import state as _grad_state
from .recorder_state import RecorderState

_getframe = sys._getframe


# NOTE [ids made ahead]
# Tensor and node ids are "t0", "t1", ... and "n0", "n1", ... in the order first seen. Every op
# gives one or two new ids, and formatting the number is a large part of what an op record
# costs, so the strings are made in blocks (here, at import, which a forked sandbox child
# inherits) and picked by index: _T_IDS[k] == f"t{k}". The lists only grow: a process keeps
# as many as its largest trace needed (about 60 bytes each). No two entries are the same string
# object, so `tids.setdefault(uid, _T_IDS[len(tids)]) is _T_IDS[len(tids)]` tells whether the
# uid was new.
_T_IDS: list[str] = []
_N_IDS: list[str] = []


def _more_ids(ids: list, prefix: str, k: int) -> str:
    """ids[k] after growing `ids` (the id strings of `prefix`) to more than k entries."""
    ids.extend([f"{prefix}{i}" for i in range(len(ids), max(k + 1, 2 * len(ids), 2048))])
    return ids[k]


_more_ids(_T_IDS, "t", 0), _more_ids(_N_IDS, "n", 0)

# NOTE [the op's line]
# An op in a loop is called from the same instruction of the same code at every iteration, and
# a frame's f_lineno is computed from the code's line table each time it is read (about a
# twentieth of an op). The line is a function of the code and the instruction offset
# (f_lasti), so on_op keeps, per code object of the user's file, a dict from offset to line
# (`_lines_of`), and the dict of the code it met last in `_op_code`/`_op_lines`: a hit costs
# an identity test and a dict look-up, and also answers the file check, since only code from
# the user's file is kept. The dicts hold one entry per call site. Code objects, not frames,
# are kept: a frame would keep its locals alive.

# NOTE [pending names]
# The latest 16 new tensors wait in `_pending` for `_scan` to name them: older temporaries
# never get a name. Forgetting the oldest on every op is a dict deletion per op, and even
# the insertion (the key, an entry tuple, a dict that keeps growing and shrinking) cost
# about a tenth of an op; so a new tensor is only appended to the list `_fresh`, and
# `_trim_pending` moves the list into the dict, in order, and cuts the dict to its newest
# 16 before anything reads it (`_scan`, the end of the run). Nothing is removed from
# either between two reads, so cutting then leaves the same entries as cutting at every
# insertion. Keys are the ids of the live tensors the entries hold, so they never collide.
# To bound memory, every 16th new id looks at `_fresh` (`_bound_pending`): once it holds
# 16, those are the newest, and the dict is dropped. Outputs too large for a snapshot are
# cut to 16 at once, so that no more of them are held than before. An op that has just
# scanned (its line differs from the last op's, as in most training code) puts its output
# straight into the dict when `_fresh` is empty, as the next op will scan again: the order
# is kept, since everything in the dict is then older.
_PENDING = 16

# NOTE [flags as described]
# `_rg` holds requires_grad as the trace last described each tensor with an id, so that a
# silent change (requires_grad_(), detach_()) is described again when the tensor is next used
# (Recorder._tid). Only a tensor without grad_fn is described again: one with a grad_fn
# requires grad. Most ids go to op outputs that require grad, so a missing entry means True
# (read as `_rg.get(uid, True)`) and on_op stores only the others; and an input with a
# grad_fn is taken as it is without a look at `_rg`, as _tid would take it.

# NOTE [op records]
# The hottest records are flat tuples, since each nested tuple or list is one more object for
# the garbage collector, which a traced run keeps busy: it ran twice as often as untraced on
# bench_trace.py's chain (runner/trace_build.py reads them):
#   op:    ("op", line, op name, number of inputs, output id, grad_fn id, node, node's saves,
#           new_nodes, grad mode, in_backward, *snapshot of the output, tensor ids so far,
#           input ids)
# The input ids stay the tuple on_op made them in: spreading them into the record would cost
# a list and a second tuple per op (a tenth of a microsecond), while the tuple holds only
# strings and numbers, which the collector stops tracking at its first pass over it.
# "Tensor ids so far" (also last in inplace records) bounds the tensor ids the event's nodes
# may name: a saved tensor or a leaf that gets its id later (it shows up in a print, or
# through `_saved_other`) is described by value there, never by an id defined after it.
#   node_apply: ("node_apply", line, pass, node id, node, number of gradients in,
#                *gradients in, *gradients out), each gradient on an edge (*snapshot, tid or
#                None), or None where none flows


class ForwardEvents(RecorderState):
    """Recorder methods for forward events (runner/recorder.py's Recorder has the state)."""

    # ---- forward events -------------------------------------------------------------------
    def on_tensor(self, tensor, how: str) -> None:
        if self._active is not None and not self._active[2]:
            return  # made by the engine inside a backward pass (see on_op)
        line, frame, quiet = self._where()
        if quiet or self._active is not None:
            return
        if self._closing:
            self._settle()
        if (self._pending or self._fresh) and frame is not None:
            self._maybe_scan(frame, line)
        if len(self._window) > self._window_cap:
            self._count_past_cap("tensor")
            return
        tid = self._tids.get(tensor._uid) or self._new_tid(tensor)
        if how == "Parameter":
            self._new_params = True     # named by its module path at a later scan
        self._rg[tensor._uid] = tensor._rg
        self._window.append(("tensor", line, tid, self._snap_tensor(tensor), how,
                             _grad_state.enabled, None))
        self._mark_library()

    def on_op(self, op_name: str, inputs: tuple, output, node) -> None:
        if len(self._window) > self._window_cap:  # also when dead or light
            if self._light and not self._closing:
                self._light_ops += 1    # the loop's middle: counted, nothing else
                return
            if self._dead or not self._light_settles("op"):
                return
        try:
            active = self._active
            lib_start = -1
            if active is None:
                # _where's first step, written out: this is the hottest call of a traced run.
                # Look at the caller of the op's apply (on_op's caller is the engine, or the
                # sandbox's limit watch that forwards to it: Recorder.forwarded). Usually
                # that is the user's code (`y * 2` runs the generated operator itself, NOTE
                # [tiny-op fast path]): one look, no call; otherwise the walk outwards.
                f = _getframe(self._op_depth)
                new_call = True   # the user's line calls the op itself (_line_again)
                if f.f_code is self._op_code:  # NOTE [the op's line]
                    frame = f
                    line = self._op_lines.get(f.f_lasti)
                    if line is None:
                        line = self._op_lines[f.f_lasti] = f.f_lineno
                elif self._file_kind.get(f.f_code.co_filename) == 1:
                    frame, line = f, self._line_of(f)
                else:
                    line, frame, quiet = self._walk_from(f)
                    new_call = self._new_call()
                    if quiet:
                        self._lib_fn = None
                        return  # optimizer.step() internals
                    if self._lib_fn is not None:   # nn.utils.clip_grad_norm_'s work
                        lib_start = len(self._window)
            else:
                new_call = False
                if node is None or not (active[2] or self._recomputing):
                    # The engine's own arithmetic inside backward: return before the stack
                    # walk. (A pass that raised and was caught is noticed at the next event
                    # that does walk the stack.)
                    return
                line, frame, quiet = self._where_in_pass(_getframe(1))
                active = self._active
                if quiet or (active is not None and (node is None or not (
                        active[2] or self._recomputing))):
                    return  # optimizer.step() internals, or a pass closed by _where_in_pass
            if node is None and self._is_grad(output) and any(t is output for t in inputs):
                return  # in-place work on a .grad (zero_()): the grad_reset event tells it
            if self._closing:
                self._settle()
            scanned = False
            if (self._pending or self._fresh) and frame is not None and (
                    frame is not self._scan_frame or line != self._scan_line
                    or self._line_again(frame, new_call)):
                self._scan(frame, line)
                scanned = True
            tids, rgs = self._tids, self._rg
            # Most inputs already have an id and are described as they are now (NOTE [flags
            # as described]); anything else (a wrapped Python number, a tensor never seen,
            # requires_grad_()) takes the loop.
            n_in = len(inputs)
            if n_in == 2:
                t0, t1 = inputs
                i0, i1 = tids.get(t0._uid), tids.get(t1._uid)
                if i0 is None or (t0.grad_fn is None and rgs.get(t0._uid, True) is not t0._rg):
                    ins = self._input_ids(inputs, line, active)
                elif i1 is not None and (t1.grad_fn is not None
                                         or rgs.get(t1._uid, True) is t1._rg):
                    ins = (i0, i1)
                elif (i1 is None and not t1._rg and active is None and t1._data.ndim == 0
                      and (not self._grad_of or id(t1) not in self._grad_of)):
                    ins = (i0, t1._data.item())  # `y * 2`: see _input_ids
                else:
                    ins = self._input_ids(inputs, line, active)
            elif n_in == 1:
                t0 = inputs[0]
                i0 = tids.get(t0._uid)
                if i0 is None or (t0.grad_fn is None and rgs.get(t0._uid, True) is not t0._rg):
                    ins = self._input_ids(inputs, line, active)
                else:
                    ins = (i0,)
            else:
                ins = self._input_ids(inputs, line, active)
            nids = self._nids
            fn_id = None
            new_nodes = ()
            if node is not None:
                # the node is new but for an op of several outputs: one lookup that inserts
                # (the candidate id is a fresh string object, NOTE [ids made ahead])
                k = len(nids)
                try:
                    fn_id = nids.setdefault(node._uid, _N_IDS[k])
                except IndexError:
                    fn_id = nids.setdefault(node._uid, _more_ids(_N_IDS, "n", k))
                for nxt in node._fns:   # next_functions' nodes (NOTE [edges without tuples])
                    if nxt is not None and nxt._uid not in nids:
                        new_nodes += self._discover(nxt)
                fn_name = node.__class__.__name__
                # every engine op makes a node only with grad mode on: no thread-local read
                saved, mode = node._saved, True
            else:
                fn = output.grad_fn
                fn_name = None
                if fn is not None:
                    fn_id, fn_name = nids.get(fn._uid), type(fn).__name__
                saved, mode = (), _grad_state.enabled
            uid = output._uid
            rg = output._rg
            a = output._data
            small = a.size <= self._copy_max
            # _new_tid, written out: one lookup that inserts the next id unless the output
            # has one (an in-place op's); each id string is its own object, so `is` tells
            k = len(tids)
            try:
                new_id = _T_IDS[k]
            except IndexError:
                new_id = _more_ids(_T_IDS, "t", k)
            out_id = tids.setdefault(uid, new_id)
            if out_id is not new_id or not rg:
                rgs[uid] = rg  # NOTE [flags as described]: a new id with True needs no entry
            if out_id is new_id:
                fresh = self._fresh
                if scanned and not fresh:
                    # a program that changes line at every op scans at every op: straight
                    # into the dict, which the next scan reads anyway (NOTE [pending names])
                    self._pending[id(output)] = (out_id, output)
                    if not (small and k & 15):
                        self._trim_pending()
                else:
                    fresh.append(output)
                    if not (small and k & 15):  # NOTE [pending names]: at most 48, or 16 large
                        self._bound_pending(small)
            # one flat record (layout in NOTE [op records]): every extra tuple per op is more
            # work for the garbage collector, which a traced run already keeps busy
            self._window.append(("op", line, op_name, len(ins), out_id, fn_id,
                                 node, saved, new_nodes, mode, active is not None,
                                 a.tobytes() if small else None, a.shape,
                                 a.dtype, rg, fn_name, len(tids), ins))
            if lib_start >= 0:
                self._mark_library_fn(lib_start)
            if active is not None:
                self._note_builder(out_id)  # a create_graph pass: which node's formula
                if self._recomputing:
                    self._recomputed.add(out_id)
        except Exception as exc:  # see Recorder._fail
            self._fail(exc)

    def _line_of(self, f) -> int:
        """f's line, for a frame of the user's file whose code is not on_op's current one:
        switch on_op's line cache to that code (NOTE [the op's line])."""
        code = f.f_code
        lines = self._lines_of.get(code)
        if lines is None:
            lines = self._lines_of[code] = {}
        self._op_code, self._op_lines = code, lines
        line = lines.get(f.f_lasti)
        if line is None:
            line = lines[f.f_lasti] = f.f_lineno
        return line

    def _input_ids(self, inputs: tuple, line, active) -> tuple:
        """Each input's id, or the number for a Python scalar the engine wrapped."""
        tids, rgs = self._tids, self._rg
        ins = []
        for t in inputs:
            tid = tids.get(t._uid)
            if tid is not None and (t.grad_fn is not None or rgs.get(t._uid, True) is t._rg):
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
        for nxt in node._fns:
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
            stack.extend(nxt for nxt in reversed(node._fns)
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
        self._note_bump(tensor, version, tid)
        self._window.append(("inplace", line, tid, op_name, version, self._snap(tensor),
                             self._nids.get(fn._uid) if fn is not None else None, node,
                             new_nodes, len(self._tids)))
        self._mark_library()

    def on_grad_mode(self, enabled: bool, mode: str) -> None:
        line, _, quiet = self._where()
        if not quiet and self._active is None:
            self._settle()
            # leaving an inner `with torch.no_grad():` sets the mode to what it was, off
            # again: only whether a context manager's __exit__ set it tells the two apart
            f: FrameType | None = _getframe(1)
            leaving = False
            for _ in range(6):
                if f is None:
                    break
                if f.f_code.co_name == "__exit__":
                    leaving = True
                    break
                f = f.f_back
            self._window.append(("grad_mode", line, enabled, mode, leaving))
            self._mark_library()
