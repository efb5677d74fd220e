"""The recorder: an engine listener that turns a run into a trace (docs/trace-format.md).

Like Python Tutor's `pg_logger`, but it watches autograd instead of the interpreter: the engine
reports tensors, ops and backward steps through `engine._events`, and the recorder gives them
stable ids, the user's line and variable names, and renders values. Recording is cheap (ids,
the line, the bytes of small arrays); turning records into events, elision and the byte cap
happen once, in `finish()`, by `runner/trace_build.py`. The listener methods live in
`runner/recorder_forward.py` and `runner/recorder_backward.py`; this file holds the state,
the user's lines and names, what the runner calls, and the windows.

Example:
    >>> import gradstep.engine as torch
    >>> from gradstep.engine import _events
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
from collections import deque
from typing import Any

from gradstep.engine import _events
from gradstep.engine.autograd import walk as _walk
from gradstep.engine.grad_mode import state as _grad_state
from gradstep.engine.nn.module import Module
from gradstep.engine.tensor import Tensor

from . import trace as T
from .error_origin import error_origin
from .recorder_backward import BackwardEvents, _graph_nodes, _saves_tensors
from .recorder_chain import ChainEvents
from .recorder_names import module_tensors, modules_in, nth
from .recorder_optim import OptimizerEvents
from .recorder_forward import _N_IDS, _PENDING, _T_IDS, ForwardEvents, _more_ids
from .recorder_hooks import HookEvents
from .recorder_light import LISTENED, LightEvents
from .recorder_loops import LoopClock
from .recorder_scopes import ScopeEvents
from .recorder_tangents import TangentEvents
from .recorder_transforms import TransformEvents
from .trace_build import Builder, failure_event, gc_paused
from .trace_summary import Summary

_getframe = sys._getframe
_ENGINE_DIR = _events.__file__.rsplit("/", 1)[0].rsplit("\\", 1)[0]
# Ops run by these engine files are bookkeeping the picture shows through its own events
# (optimizer_step, grad_reset), not steps of the learner's program.
_QUIET_DIRS = tuple(_ENGINE_DIR + sep + "optim" for sep in ("/", "\\"))
# A library function the program calls on its gradients (nn.utils.clip_grad_norm_): its
# norms, stacks and scalings are one step with its result (runner/trace_library.py)
_LIBRARY_FILES = tuple(_ENGINE_DIR + sep + "nn" + sep + "utils.py" for sep in ("/", "\\"))
# A loop whose body is one line is looked at once per iteration for this many iterations, then
# only after it (Recorder._line_again): a learner steps through a few dozen, while reading the
# variables at every op of a 2,000-op chain made its traced run a fifth slower.
_AGAIN_MAX = 100

# A value snapshot taken at event time: (the array's bytes or None, shape, numpy dtype,
# requires_grad, grad_fn name or None). Bytes rather than an array copy: cheaper to take, and
# invisible to the garbage collector, which otherwise rescans every record on each collection.
# Rendered to a `value` dict in finish().
Snap = tuple


class Recorder(ForwardEvents, BackwardEvents, ScopeEvents, HookEvents, TransformEvents,
               TangentEvents, OptimizerEvents, LightEvents, ChainEvents, _events.Listener):
    """Listen to the engine while a program runs; `finish()` returns the trace dict.

    `limits` overrides keys of `runner.trace.DEFAULT_LIMITS`: a dict of those keys, or an object
    such as the sandbox's `Limits`, read through attributes named `max_trace_<x>` for
    `max_<x>` keys (`max_trace_events`) or `trace_<key>` for the others.
    """

    def __init__(self, source: str, filename: str, limits: Any = None) -> None:
        self.source, self.filename = source, filename
        self.limits = _coerce_limits(limits)
        self._copy_max = self.limits["repr_max_numel"]
        self._digits = self.limits["digits"]
        self._tail_n = self.limits["detail_tail"]
        self._tids: dict[int, str] = {}      # Tensor._uid -> "tK"
        # Tensor._uid -> requires_grad as last described; missing: True (NOTE [flags as
        # described] in recorder_forward.py)
        self._rg: dict[int, bool] = {}
        self._nids: dict[int, str] = {}      # Node._uid -> "nK"
        self._names: dict[str, str] = {}     # "tK" -> its name (runner/recorder_names.py)
        self._bound: dict[str, int] = {}     # variable -> how many tensors it has named
        self._pathed: set[str] = set()       # tensor ids named by a module path
        self._new_params = False             # a Parameter was made since modules were named
        # id(record) -> record, for records a library module's constructor made (its
        # parameters, their initialisation): folded into one step (runner/trace_library.py)
        self._library: dict[int, tuple] = {}
        # id(record) -> the library function (clip_grad_norm_) whose work the record is
        self._library_fn: dict[int, str] = {}
        self._lib_fn: str | None = None      # set by _walk_from: the walk passed such a file
        self._built_by: dict[str, str] = {}  # tensor id -> the backward node that made it
        self._recomputed: set[str] = set()   # tensor ids a checkpoint's rerun made
        self._seeds: list[tuple] = []        # (seed uid, root id) of create_graph passes
        self._pending: dict[int, tuple] = {}  # id(tensor) -> (tid, tensor), not yet named
        self._fresh: list = []               # tensors given ids since, not yet in _pending
        self._globals: dict | None = None    # the user module's namespace, scanned at the end
        self._file_kind: dict[str, int] = {}  # co_filename -> 0 other, 1 user, 2 quiet
        # The tensors that are some leaf's .grad, held weakly (a .grad keeps its leaf alive):
        self._grad_of: dict[int, tuple] = {}  # id(grad) -> (owner tid, weakref to grad)
        self._grad_obj: dict[str, Any] = {}   # owner tid -> weakref to its grad
        self._grad_ids: list[tuple] = []      # (tid, owner tid) of .grad tensors the program used
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
        self._jac_after: dict | None = None  # J the pass fills in (recorder_backward)
        self._recomputing = 0                # checkpoint reruns open in a pass (scopes)
        self._outer_passes: list = []        # the passes a running pass began inside
        self._series: list[list] = []        # [pass, scalar root value]
        self._printed: list[list] = []       # [line, text] per print chunk
        self._plotted: list[dict] = []       # matplotlib figures (runner/pyplot.py)
        self._last_stdout: list | None = None
        self._ops = 0                        # set by finish(): see _count_ops
        self._bw_frame = None                # the engine frame the user called backward through
        self._bw_line = None
        self._last_grad: tuple | None = None  # NOTE [a gradient handed on]
        self._scan_frame = None
        # NOTE [the op's line]: code of the user's file -> {f_lasti: line}, and the entry of
        # the code on_op met last
        self._lines_of: dict = {}
        self._op_code = None
        self._op_lines: dict = {}
        self._op_depth = 2                   # on_op's frames out to the op's caller: forwarded()
        self._scan_line = None
        self._scan_at = -1                   # the furthest f_lasti an event reached on that line
        self._again = 0                      # times that line ran again and was looked at
        self._again_names: list[str] = []    # the variables the last look at that line named
        self._callee: Any = None             # the call the user's frame made, of the last walk
        self._last_call: Any = None          # the call the last walked op came from
        self._dead = False                   # set by _fail(): record only the console
        self._closing = False                # a pass ended; its window closes soon
        self._builder: Builder | None = None  # finish()'s, which dump() reuses
        self._n_transforms = 0               # transforms begun (runner/recorder_transforms.py)
        self._open_transforms: list = []     # those not ended yet, innermost last
        # id(op record) -> (the record, its output's tangent snapshot), while a dual level is
        # open (runner/recorder_tangents.py); the record is held so that its id stays its own
        self._op_tangents: dict[int, tuple] = {}
        # id(node_apply record) -> (the record, its node's local Jacobian), in the passes that
        # get one (runner/recorder_chain.py); the record is held for the same reason
        self._locals: dict[int, tuple] = {}
        self._local_ok = False               # the open pass records local Jacobians
        # id(version counter) -> (the counter, {version: id of the tensor an in-place op
        # bumped to it}), to name the bump behind "modified by an inplace operation"
        self._bumps: dict[int, tuple] = {}
        self._dual_pending: tuple | None = None
        # light windows (runner/recorder_light.py): the loop's middle, recorded as its loss
        # and parameters only
        self._loops = LoopClock(source, self.limits["detail_tail"] + 2)
        self._light = False                  # the open window is light
        self._next_light = False             # the next window will be (decided at a pass)
        self._named_now: list[str] = []      # variables named in the open window
        self._light_names: list[str] = []    # ... in the last full one, rebound every light one
        self._light_ops = self._light_applies = 0  # counted inline, not yet in the summary
        # NOTE [light routing] in recorder_light.py: whether the engine calls the light table,
        # the table, and how to hand it over (forwarded() says: through the limit watch)
        self._fast = False
        self._fast_table = None
        self._tally = [0] * len(LISTENED)    # events counted by kind, not yet in the summary
        self._follow: Any = None             # the limit watch's follow(), or None: _shadow
        self._shadowed: dict = {}

    def forwarded(self, watch: Any = None) -> None:
        """The engine's events reach this recorder through one more listener's frame (the
        sandbox's limit watch): on_op's first look for the op's caller goes one frame further
        out. Without this, every op of a sandboxed run missed that look and walked the stack.
        `watch.follow(target, copies)` makes the watch forward to `target`'s methods
        (NOTE [light routing])."""
        self._op_depth += 1
        if watch is not None:
            self._follow = watch.follow

    def _route(self, target: Any, copies: bool) -> None:
        """Have the engine's events go to `target`'s listener methods (NOTE [light
        routing])."""
        if self._follow is not None:
            self._follow(target, copies)
        else:
            self._shadow(target, copies)

    def _release(self) -> None:
        """Let go of what points back at this recorder (the light table's methods, the
        watch), so that a finished recorder is freed at once, not left to the collector."""
        if self._fast and self._follow is None:
            self._shadow(self, True)
        self._fast = False
        self._fast_table = None
        self._follow = None

    def _shadow(self, target: Any, copies: bool) -> None:
        """The route when the engine calls this recorder itself: the light table's methods
        shadow the class's as instance attributes, until they are removed again."""
        attrs = self.__dict__
        if target is self:
            for name in LISTENED:
                attrs.pop(name, None)
            # what the table covered: the on_op of an open forward-mode level
            attrs.update(self._shadowed)
            self._shadowed = {}
        else:
            self._shadowed = {name: attrs[name] for name in LISTENED if name in attrs}
            for name in LISTENED:
                attrs[name] = getattr(target, name)
        self.copies = copies

    # ---- ids, lines, names --------------------------------------------------------------------
    def _where(self) -> tuple:
        """(user line or None, the user frame, whether an engine-internal file called us)."""
        f = _getframe(2)
        if self._active is not None:
            return self._where_in_pass(f)
        return self._walk_from(f)

    def _walk_from(self, f) -> tuple:
        """_where's walk, from frame `f` outwards (on_op calls it when its one look at its
        caller's caller did not find the user's file)."""
        kinds = self._file_kind
        quiet = False
        self._lib_fn = None     # said afresh by every walk: read only right after one
        callee = None
        while f is not None:
            k = kinds.get(f.f_code.co_filename)
            if k is None:
                k = self._classify(f.f_code.co_filename)
            if k == 1:
                self._callee = callee
                return f.f_lineno, f, quiet
            if k == 2:
                quiet = True
            elif k == 3:
                self._lib_fn = f.f_code.co_name
            callee = f
            f = f.f_back
        return None, None, quiet

    def _quiet_from(self, f) -> bool:
        """_walk_from(f)'s last answer alone (whether the event comes from inside
        optimizer.step()), stopping at the first frame that tells, and leaving the walk's
        other findings as they were: a light window asks it at every event that may close
        the last pass's window, and reads nothing else."""
        kinds = self._file_kind
        while f is not None:
            k = kinds.get(f.f_code.co_filename)
            if k is None:
                k = self._classify(f.f_code.co_filename)
            if k == 1:
                return False
            if k == 2:
                return True
            f = f.f_back
        return False

    def _classify(self, fn: str) -> int:
        k = self._file_kind[fn] = (1 if fn == self.filename else
                                   2 if fn.startswith(_QUIET_DIRS) else
                                   3 if fn.endswith(_LIBRARY_FILES) else 0)
        return k

    def _mark_library_fn(self, start: int) -> None:
        """Mark the records appended since `start` as the work of the library function the
        last walk passed (`_lib_fn`), and forget it."""
        fn, self._lib_fn = self._lib_fn, None
        window = self._window
        for rec in window[start:]:
            self._library[id(rec)] = rec
            self._library_fn[id(rec)] = fn

    def _where_in_pass(self, f) -> tuple:
        """_where while a backward pass is active, also checking that the engine call which
        started the pass is still on the stack: the engine reports no end for a pass that
        raised, and learners catch the freed-buffer error and go on."""
        kinds = self._file_kind
        quiet = False
        self._lib_fn = None
        bw = self._bw_frame
        while f is not None:
            k = kinds.get(f.f_code.co_filename)
            if k is None:
                k = self._classify(f.f_code.co_filename)
            if k == 1:
                break
            if k == 2:
                quiet = True
            elif k == 3:
                self._lib_fn = f.f_code.co_name
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

    def _mark_library(self) -> None:
        """Mark the record just appended as library work when a module of the library is
        being constructed between the user's line and here (nn.Linear's parameters and
        their `uniform_` under no_grad): the learner's line built a model, not ten steps."""
        if self._lib_fn is not None:    # the walk passed nn.utils: that function's work
            self._mark_library_fn(len(self._window) - 1)
            return
        f = _getframe(2)
        filename = self.filename
        while f is not None:
            code = f.f_code
            if code.co_filename == filename:
                return
            if code.co_name == "__init__" and code.co_filename.startswith(_ENGINE_DIR) \
                    and isinstance(f.f_locals.get("self"), Module):
                rec = self._window[-1]
                self._library[id(rec)] = rec
                return
            f = f.f_back

    def _note_builder(self, out_id: str) -> None:
        """Note which backward node's formula made `out_id` in a create_graph pass (the
        walk's `node` while it runs), so the page shows each new node at its cause."""
        f = _getframe(2)
        while f is not None and f.f_code is not _WALK_CODE:
            f = f.f_back
        if f is not None:
            node = f.f_locals.get("node")
            if node is not None and node._uid in self._nids:
                self._built_by[out_id] = self._nids[node._uid]

    def _name_seeds(self) -> None:
        """The gradient 1 a create_graph pass starts from takes part in the new graph: name
        it ∂y/∂y after its root (it is exactly that derivative)."""
        names = self._names
        for uid, root in self._seeds:
            tid = self._tids.get(uid)
            if tid is not None and tid not in names and names.get(root):
                names[tid] = f"∂{names[root]}/∂{names[root]}"

    def _name_grads(self) -> None:
        """A `.grad` the program used (`w.grad` in `w -= lr * w.grad`, clip_grad_norm_'s
        norms) is called by what it is, `model.weight.grad`, unless a variable named it."""
        names = self._names
        for tid, owner in self._grad_ids:
            if tid not in names and names.get(owner):
                names[tid] = names[owner] + ".grad"

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
        self._outer_passes.clear()
        if exc is None:
            self._active = None
            self._close_window()
            return
        self.error(type(exc).__name__, str(exc), self._bw_line, "exception", caught=True,
                   exc=exc, origin=error_origin(exc, self.filename))

    def _maybe_scan(self, frame, line) -> None:
        if frame is not self._scan_frame or line != self._scan_line or self._line_again(frame):
            self._scan(frame, line)

    def _line_again(self, frame, new_call: bool = False) -> bool:
        """Whether the scanned line is running again: its frame jumped back to an earlier
        instruction (the next iteration of a loop whose body is this one line), so the last
        iteration's assignment has happened and `h` of each iteration gets its name.

        Past `_AGAIN_MAX` iterations of one line the loop is long, not one to step through:
        it is looked at after it, as any line.

        The same instruction is the next iteration too when it made a new call (`new_call`:
        `y * 2` again, or `torch.tanh(y)` again); the ops inside one library call
        (`model(x)`) share one instruction and one call, so one call's work scans once.
        """
        at = frame.f_lasti
        again = at < self._scan_at or (new_call and at == self._scan_at)
        if self._again >= _AGAIN_MAX:
            if again:
                self._glance(frame)
            self._scan_at = at
            return False
        if again:
            self._again += 1
            return True
        self._scan_at = at
        return False

    def _glance(self, frame) -> None:
        """An iteration of a long one-line loop, not looked at in full: it rebinds the
        variables the last full look named. At the module level each is one dict lookup, so
        its new result gets its name (`x₃₈₉`); in a function, reading the frame's variables
        would cost what the bound saves, so the binding is only counted, and the result the
        loop leaves still keeps its number (`y₃₀₁` after 300 iterations, not `y₁₀₂`)."""
        names = self._again_names
        if frame.f_code.co_name == "<module>" and (self._fresh or self._pending):
            self._trim_pending()
            pending, values = self._pending, frame.f_globals
            for name in names:
                value = values.get(name)
                entry = pending.get(id(value))
                if entry is not None and entry[1] is value:
                    self._give_name(entry[0], name)
                    del pending[id(value)]
                else:
                    self._bound[name] += 1
            return
        bound = self._bound
        for name in names:
            bound[name] += 1

    def _new_call(self) -> bool:
        """Whether the op the last walk came from was made by another call of the user's frame
        than the op before it: one library call (`model(x)`) makes many ops, only its first
        is a new call (`_line_again`)."""
        call = self._callee
        new = call is not self._last_call
        self._last_call = call
        return new

    def _scan(self, frame, line) -> None:
        """Name pending tensors after the user variables now bound to them (see the docs).

        Scanning a frame's variables costs more than recording an event, so this runs only
        when the program moved to another line or frame: the assignment of the last result has
        happened by then, and when the same line runs again (`_line_again`). `y = y * 2; y = y * 2`
        on one line names only the last `y`.
        """
        if frame is not self._scan_frame or line != self._scan_line:
            self._again = 0
        again_names = self._again_names = []
        self._scan_frame, self._scan_line, self._scan_at = frame, line, frame.f_lasti
        if self._globals is None and frame.f_code.co_name == "<module>":
            self._globals = frame.f_globals
        if self._new_params:   # until a module is found, or the module level (named at the end)
            self._new_params = not self._name_modules(frame.f_locals.items()) and \
                frame.f_code.co_name != "<module>"
        pending = self._pending
        if self._fresh or len(pending) > _PENDING:
            self._trim_pending()
        code = frame.f_code
        args = code.co_varnames[:code.co_argcount + code.co_kwonlyargcount]
        for name, value in frame.f_locals.items():
            entry = pending.get(id(value))
            if entry is not None and entry[1] is value and name[:1] != "_":
                if name in args:
                    # a parameter is the caller's tensor under the callee's word: MyReLU's
                    # `input` is the learner's `x`
                    name = self._caller_name(frame, value) or name
                if self._give_name(entry[0], name):
                    again_names.append(name)
                del pending[id(value)]
                if not pending:
                    return

    def _caller_name(self, frame, value) -> str | None:
        """The public name an outer frame of the program binds `value` to, or None."""
        f = frame.f_back
        while f is not None:
            if f.f_code.co_filename == self.filename:
                for name, v in f.f_locals.items():
                    if v is value and name[:1] != "_" and name != "self":
                        return name
            f = f.f_back
        return None

    def _give_name(self, tid: str, name: str) -> bool:
        """Name `tid` after the variable `name`, numbering rebindings (`y`, `y₂`, `y₃`);
        whether it was unnamed until now."""
        if tid in self._names:
            return False
        n = self._bound[name] = self._bound.get(name, 0) + 1
        self._names[tid] = nth(name, n)
        self._named_now.append(name)
        return True

    def _name_modules(self, items) -> bool:
        """Name the parameters and buffers of the modules among a namespace's `items` by
        their paths (`model[0].weight`), over any variable name; whether there were any."""
        modules = modules_in(items)
        tids, names, pathed = self._tids, self._names, self._pathed
        for name, module in modules:
            for t, path in module_tensors(name, module):
                tid = tids.get(t._uid)
                if tid is not None and tid not in pathed:
                    names[tid] = path
                    pathed.add(tid)
        return bool(modules)

    def _new_tid(self, t: Tensor) -> str:
        tids = self._tids
        k = len(tids)
        tid = tids[t._uid] = _T_IDS[k] if k < len(_T_IDS) else _more_ids(_T_IDS, "t", k)
        self._rg[t._uid] = t._rg
        fresh = self._fresh
        fresh.append(t)
        if len(fresh) > _PENDING:  # temporaries never get a name: forget the oldest
            self._bound_pending(True)
        return tid

    def _bound_pending(self, small: bool) -> None:
        """Bound what waits for a name without building `_pending` (NOTE [pending names]):
        when `_fresh` alone holds 16, they are the newest 16 and `_pending` is all older."""
        fresh = self._fresh
        if len(fresh) >= _PENDING:
            self._pending.clear()
            del fresh[:-_PENDING]
        elif not small:
            self._trim_pending()

    def _trim_pending(self) -> None:
        """Move `_fresh` into `_pending` and keep its newest 16 entries (NOTE [pending
        names])."""
        pending, fresh = self._pending, self._fresh
        if fresh:
            tids = self._tids
            for t in fresh:
                pending[id(t)] = (tids[t._uid], t)
            fresh.clear()
        over = len(pending) - _PENDING
        if over > 0:
            for key in list(pending)[:over]:
                del pending[key]

    def _tid(self, t: Tensor, line) -> str:
        """The id of `t`, registering it (a `tensor` record) if the engine never reported it,
        or re-describing it if its requires_grad changed silently (`requires_grad_()`)."""
        tid = self._tids.get(t._uid)
        if tid is not None and self._rg.get(t._uid, True) is not t._rg and t.grad_fn is None:
            self._rg[t._uid] = t._rg
            self._window.append(("tensor", line, tid, self._snap_tensor(t), "requires_grad_",
                                 _grad_state.enabled, None))
        if tid is None:
            tid = self._new_tid(t)
            owner = self._grad_of.get(id(t))
            how = ("grad" if owner is not None and owner[1]() is t else
                   ("recompute" if t._rg else "constant") if self._recomputing else
                   "backward" if self._active is not None else "constant")
            self._window.append(("tensor", line, tid, self._snap_tensor(t), how,
                                 _grad_state.enabled, owner[0] if how == "grad" else None))
            if how == "grad":
                self._grad_ids.append((tid, owner[0]))
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

    def _settle(self) -> None:
        if self._closing:
            self._closing = False
            self._close_window()

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

    def plotted(self, figures: list) -> None:
        """The figures the program drew with matplotlib.pyplot (for the header's series)."""
        self._plotted = [f for f in figures if f["lines"]]

    def warning(self, category_name: str, message: str, line: int | None) -> None:
        """Python displayed a warning (category name, PyTorch's message, user line)."""
        self._settle()
        self._window.append(("warning", line, category_name, message))

    def error(self, type_name: str, message: str, line: int | None, kind: str = "exception",
              *, caught: bool = False, exc: BaseException | None = None,
              origin: str | None = None) -> None:
        """The program stopped with an error (uncaught exception, refusal, limit, crash).

        `caught` marks an error raised by a backward pass that the program caught and went on.
        `exc`, the exception itself, tells which node the pass was running when it raised;
        `origin` who raised it ("pytorch", "python" or "gradstep"; the sandbox decides).
        """
        node = None
        k = None
        modified = None
        self._settle()
        if exc is not None and not caught:
            self._name_stopped(exc)
        if self._active is not None:
            k = self._active[0]
            failing = _failing_node(exc) if exc is not None else (
                self._modified_node() or self._first_freed())
            if failing is not None:
                node = self._nids.get(failing._uid)
                modified = self._modified(failing)
            self._active = None
            self._local_ok = False
            self._bw_frame = None
            self._outer_passes.clear()
        if origin is None:
            origin = "gradstep" if kind != "exception" else (
                "python" if type_name in _PYTHON_ERRORS else "pytorch")
        self._window.append(("error", line, type_name, message, kind, node, k, caught,
                             origin, modified))
        if k is not None:
            self._close_window()

    def _name_stopped(self, exc: BaseException) -> None:
        """Name what the program had bound when it stopped: a limit or an error can come
        before any later line would have looked at the variables (and the end of the run
        looks only at the module's, once it knows them)."""
        tb = exc.__traceback__
        while tb is not None:
            f = tb.tb_frame
            if f.f_code.co_filename == self.filename:
                if self._globals is None and f.f_code.co_name == "<module>":
                    self._globals = f.f_globals
                if self._pending or self._fresh or self._new_params:
                    self._scan(f, None)
            tb = tb.tb_next

    def _first_freed(self):
        """The node a pass raised at when the exception is not at hand: the first one it
        reaches whose saved tensors are gone (the freed-buffer error's node)."""
        for n in _graph_nodes(self._active[1]):
            if n._freed and n._uid in self._nids and _saves_tensors(n):
                return n
        return None

    def finish(self, exit_code: int, check: bool = False) -> dict:
        """The trace of the run so far; the recorder should not be used after.

        `check=True` also validates it (the tests and the fixture script do; a run does not
        pay for it, since validating costs more than recording).
        """
        if self._active is not None:  # a backward that raised without error() being called
            self._active = None
        self._settle()
        if self._elided is not None:  # the run may have ended inside a light window
            self._light_fold_counts()
        self._release()
        try:
            if self._globals is not None and (self._pending or self._fresh):
                self._trim_pending()
                self._scan_globals()
            if self._globals is not None:
                self._name_modules(list(self._globals.items()))
            self._name_seeds()
            self._name_grads()
            self._ops = self._count_ops()
            self._builder = Builder(self)
            with gc_paused():
                return self._builder.build(exit_code, check)
        except Exception as exc:  # still give the console and the error
            if check:
                raise
            return self._fallback(exit_code, exc)

    def dump(self, trace: dict) -> bytes:
        """`runner.trace.dump(trace)` of the trace finish() returned, without encoding its
        events again: the text each was sized with is reused (NOTE [events encoded once])."""
        builder = self._builder
        if builder is None:
            return T.dump(trace)
        return T.dump_parts(trace, builder.event_parts, builder.with_series)

    def _count_ops(self) -> int:
        """The op events of the run: its op records, and the ops counted past the window cap
        (`overflow` records), the elided middle's included. on_op keeps no counter of its
        own: it is the hottest call of a traced run, and the records already count."""
        summary = self._elided
        n = summary.counts.get("op", 0) if summary is not None else 0
        for window in (*self._head, *self._tail, self._window):
            for r in window:
                kind = r[0]
                if kind == "op":
                    n += 1
                elif kind == "overflow":
                    n += r[2].get("op", 0)
        return n

    def _count_past_cap(self, kind: str) -> None:
        """Count an event past the window cap (NOTE [window cap]) in the window's last
        `overflow` record: ("overflow", None, {kind: count}), cut into the elided event."""
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
        # on_op and on_node_apply test the window cap first: with it at -1, that one test
        # also stops them, and they look at _dead only then
        self._window_cap = -1
        self._active = None
        self._window.append(("failure", None, f"{type(exc).__name__}: {exc}"))
        self._reroute()

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
                               "error_kind": r[4], "node": None, "pass": None,
                               "origin": r[8]})
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
                self._give_name(entry[0], name)
                del pending[id(value)]

    # ---- windows and elision ----------------------------------------------------------------
    def _close_window(self) -> None:
        window, self._window = self._window, []
        self._last_stdout = None
        named, self._named_now = self._named_now, []
        if self._light:
            # the variables a full iteration binds are bound again by every light one, so
            # that `loss` of the last iteration keeps the number it has untraced (`loss₅₀`)
            bound = self._bound
            for name in self._light_names:
                bound[name] = bound.get(name, 0) + 1
            self._elided.absorb(window)     # what it printed or warned: its counts are in
            self._light_fold_counts()
        elif len(self._head) < self.limits["detail_head"]:
            self._head.append(window)
        else:
            self._tail.append(window)
            if len(self._tail) > self.limits["detail_tail"]:
                if self._elided is None:
                    self._elided = Summary(self.limits["detail_tail"])
                self._elided.absorb(self._tail.popleft())
        light, self._next_light = self._next_light, False
        if light and not self._light:
            # the windows waiting in the tail are not the last ones now: into the summary
            # before the light ones, so that the latest update is the one kept
            if self._elided is None:
                self._elided = Summary(self.limits["detail_tail"])
            while self._tail:
                self._elided.absorb(self._tail.popleft())
            self._light_names = named
        if self._dead:
            return
        if self._light and not light:
            self._light_survivors()
        self._light = light
        # on_op and on_node_apply test the window cap first: at -1 that one test sends them
        # to LightEvents._light_settles
        self._window_cap = -1 if light else self.limits["max_events"]
        self._reroute()


def _guarded(method):
    """Run a listener method so that a recorder bug never changes what the program does; in
    a light window, its light form (runner/recorder_light.py) or a count."""
    name = method.__name__
    light = getattr(LightEvents, "_light_" + name, None)
    kind = name[3:]
    settles = name in _SETTLING

    def guarded(self, *args):
        if self._dead:
            return None
        try:
            if self._light:
                if settles and self._closing:
                    self._settle_unless_quiet()
                if self._light:
                    if light is None:   # _light_count, written out: most light events
                        counts = self._elided.counts
                        counts[kind] = counts.get(kind, 0) + 1
                        return None
                    return light(self, *args)
            return method(self, *args)
        except Exception as exc:
            self._fail(exc)
            return None
    guarded.__name__, guarded.__doc__ = method.__name__, method.__doc__
    return guarded


# The events that close a pass's window when they come after it (Recorder._settle): in a
# light window they do so before deciding whether they are light themselves. (A module
# call closes it too, so that the call's scope is recorded when the next window is full.)
_SETTLING = frozenset({"on_tensor", "on_inplace", "on_grad_mode", "on_backward_begin",
                       "on_grad_reset", "on_module_enter"})


# on_op and on_node_apply, the hot ones, guard themselves inline
for _name in [n for n in vars(_events.Listener) if n.startswith("on_")
              and n not in ("on_op", "on_node_apply")]:
    setattr(Recorder, _name, _guarded(getattr(Recorder, _name)))


def _failing_node(exc: BaseException):
    """The node the backward walk was running when `exc` left it, or None (the pass raised
    before running any node, e.g. a root without grad_fn).

    PyTorch blames the node whose step raised: the one whose backward unpacked a modified or
    freed saved tensor, whose hooks raised or returned a wrong shape, or whose outputs anomaly
    mode found NaN in. The walk's frame in the exception's traceback holds that node in its
    `node` variable; the innermost walk frame is the pass that raised.
    """
    found = None
    tb = exc.__traceback__
    while tb is not None:
        if tb.tb_frame.f_code is _WALK_CODE:
            found = tb.tb_frame.f_locals.get("node")
        tb = tb.tb_next
    return found


_WALK_CODE = _walk.run.__code__
# errors only the language raises, when the sandbox did not say who raised an error
_PYTHON_ERRORS = frozenset({"SyntaxError", "IndentationError", "TabError", "NameError",
                            "UnboundLocalError"})


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
