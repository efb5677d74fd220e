"""The recorder's light windows: iterations of a loop known to be in its summarised middle.

A training loop's answer shows its first `limits.detail_head` and last `limits.detail_tail`
iterations and one `elided` event for the middle (docs/trace-format.md, section 9). When
`runner/recorder_loops.py` can tell from the source that at least `detail_tail` more
iterations follow the next one, the next window is *light*: it records only what the elided
event keeps of it, which is the loss (the pass's root value, for the series), the latest value
and `.grad` of the tensors the trace already knows (the parameters: the summary's `updates`),
what the program printed or warned, and a count of each kind of event. No ids are given, no
names looked up, no value copied but the parameters'. The window before the first light one
and every window left in the tail then join the summary at once, so that its updates stay in
the order they happened.

The methods here stand in for the listener's while `_light` is set; a kind with no method of
its own is only counted. NOTE [light routing]: while a light window is open and no pass's
window waits to close, the engine calls them with nothing in between: the recorder hands the
engine (or the sandbox's limit watch, which forwards to it) a table of them in place of its
own methods (`_reroute`), where each kind that is only counted adds one to its entry of a
tally (folded into the summary's counts when a window closes the long way or the run ends),
and the engine copies nothing for it (NOTE [listener copies] in engine/_events.py). In the
last light window, once its pass has ended (`_closing`: the next window is full, and the
optimizer step may still belong to this one), `runner/recorder.py`'s `_guarded` picks them
after its checks instead, and `on_op` and `on_node_apply` find the window cap at -1. Each
method contains its own errors, as `_guarded` does: a recorder bug never changes what the
program does.
"""
from __future__ import annotations

import sys
from types import FrameType, SimpleNamespace

from numpy import ndarray

from gradstep.engine import _events
from gradstep.engine.grad_mode import state as _grad_state
from gradstep.engine.tensor import Tensor

from .recorder_backward import _array_snap
from .trace_build import num
from .recorder_state import RecorderState

_getframe = sys._getframe


class LightEvents(RecorderState):
    """Recorder methods for light windows (runner/recorder.py's Recorder has the state)."""

    _light: bool
    _next_light: bool
    _closing: bool
    _light_ops: int
    _light_applies: int
    _fast: bool
    _fast_table: SimpleNamespace | None
    _tally: list[int]
    _tail_n: int

    def _reroute(self) -> None:
        """Hand the engine the light table while a light window is open and no pass's window
        waits to close, the recorder's own methods otherwise (NOTE [light routing])."""
        fast = self._light and not self._closing and not self._dead
        if fast is self._fast:
            return
        self._fast = fast
        if fast:
            table = self._fast_table
            if table is None:
                table = self._fast_table = self._light_table()
            dual = vars(self).get("on_op")
            if dual is not None:
                # a forward-mode level is open (runner/recorder_tangents.py): its on_op, which
                # reads the tangent an op before left pending, goes on seeing every op
                table = SimpleNamespace(**{**vars(table), "on_op": dual})
            self._route(table, False)
        else:
            self._route(self, not self._dead)

    def _light_table(self) -> SimpleNamespace:
        """The listener methods of a light window, by name: the light forms below, and for
        every other kind a count."""
        tally = self._tally
        table = {name: _counter(tally, i) for i, name in enumerate(LISTENED)}
        for name in LISTENED:
            light = getattr(self, "_light_" + name, None)
            if light is not None:
                table[name] = light
        return SimpleNamespace(**table)

    def _light_count(self, kind: str) -> None:
        counts = self._elided.counts
        counts[kind] = counts.get(kind, 0) + 1

    def _light_settles(self, kind: str) -> bool:
        """For on_op and on_node_apply past the window cap, when not simply counted in a light
        window: count `kind` and say whether the event is to be recorded in full after all
        (the last pass's window closed on it and the next one is not light)."""
        if not self._light:
            self._count_past_cap(kind)
            return False
        self._settle_unless_quiet()
        if not self._light:
            return True
        self._light_count(kind)
        return False

    def _settle_unless_quiet(self) -> None:
        """Close the last pass's window, as the full forms of the settling events do, unless
        the event comes from inside optimizer.step(), which belongs to that window."""
        if self._closing and not self._quiet_from(_getframe(2)):
            self._settle()

    def _light_fold_counts(self) -> None:
        """Add the events counted inline (the light table's tally; on_op and on_node_apply
        of a closing light window) to the summary's counts."""
        counts = self._elided.counts
        tally = self._tally
        if any(tally):
            for kind, n in zip(KINDS, tally):
                if n:
                    counts[kind] = counts.get(kind, 0) + n
            tally[:] = _NONE_YET
        if self._light_ops:
            counts["op"] = counts.get("op", 0) + self._light_ops
        if self._light_applies:
            counts["node_apply"] = counts.get("node_apply", 0) + self._light_applies
        self._light_ops = self._light_applies = 0

    def _light_track(self, tid: str, grad) -> None:
        """_track_grad, unless `grad` is already known as the .grad of `tid` and of no other
        (`w.grad.zero_()`, an accumulation in place): then it would change nothing."""
        if grad is not None:
            ref = self._grad_obj.get(tid)
            if ref is not None and ref() is grad:
                entry = self._grad_of.get(id(grad))
                if entry is not None and entry[0] == tid and entry[1] is ref:
                    return
        self._track_grad(tid, grad)

    def _light_update(self, t, key: str, snap) -> None:
        tid = self._tids.get(t._uid)
        if tid is not None:
            self._elided.updates.setdefault(tid, {})[key] = snap

    # ---- the listener's methods, light ------------------------------------------------------
    def _light_on_backward_begin(self, roots, grad_tensors, retain_graph, create_graph, inputs,
                                 api) -> None:
        try:
            # the user's frame, by the walk a full pass's begin takes (once a pass: not hot)
            f = self._walk_from(_getframe(1))[1]
            k = self._passes
            self._passes = k + 1
            summary = self._elided
            if summary.first_pass is None:
                summary.first_pass = k
            summary.last_pass = k
            first = roots[0]._data if roots else None
            if first is not None and first.size == 1:
                self._series.append([k, num(first.item(), self._digits)])
            self._tally[_BACKWARD_BEGIN] += 1
            # _plan_next, written out: the head is full and the recorder alive, or this
            # window would not be light; the clock reads the line only when it counts anew
            left = self._loops.remaining(f)
            self._next_light = left is not None and left - 1 >= self._tail_n
        except Exception as exc:
            self._fail(exc)

    def _light_on_backward_end(self, api: str) -> None:
        try:
            self._tally[_BACKWARD_END] += 1
            self._last_grad = None
            if not self._next_light:
                self._closing = True
                self._reroute()
            elif self._window or self._named_now or not self._light or self._light_ops \
                    or self._light_applies:
                # The next window is light too: what follows the pass (optimizer.step(), a
                # print) goes into the same summary, in the same order, whichever of the two
                # windows holds it, so the window closes now. Left open, every event up to
                # the next iteration's first would first ask whether it comes from inside
                # optimizer.step() (a walk up the stack), to know which window it belongs to.
                self._close_window()
            else:
                # _close_window of an empty light window before another, written out: the
                # variables its iteration bound again, and the sweep's clock
                self._last_stdout = None
                bound = self._bound
                for name in self._light_names:
                    bound[name] = bound.get(name, 0) + 1
                self._elided.absorb(self._window)
                self._next_light = False
        except Exception as exc:
            self._fail(exc)

    def _light_on_accumulate(self, tensor, before, added, after) -> None:
        try:
            summary = self._elided
            self._tally[_ACCUMULATE] += 1
            tid = self._tids.get(tensor._uid)
            if tid is not None:
                self._light_grad(summary, tid, after)
        except Exception as exc:
            self._fail(exc)

    def _light_on_grad_reset(self, tensor, how: str) -> None:
        try:
            summary = self._elided
            self._tally[_GRAD_RESET] += 1
            tid = self._tids.get(tensor._uid)
            if tid is not None:
                self._light_grad(summary, tid, tensor._grad)
        except Exception as exc:
            self._fail(exc)

    def _light_grad(self, summary, tid: str, g) -> None:
        """Tensor `tid`'s `.grad` is now `g` (a tensor, or None once reset): tracked, and kept
        as the summary's last word on it."""
        self._light_track(tid, g)
        snap = None if g is None else self._snap(g)
        updates = summary.updates.get(tid)
        if updates is None:
            summary.updates[tid] = {"grad": snap}
        else:
            updates["grad"] = snap

    def _light_on_optimizer_step(self, optimizer, params, before, after) -> None:
        # `after` may be the parameters' own arrays (NOTE [listener copies]): read here
        try:
            summary = self._elided
            self._tally[_OPTIMIZER_STEP] += 1
            tids, updates = self._tids, summary.updates
            for p, a in zip(params, after):
                tid = tids.get(p._uid)
                if tid is not None:
                    snap = ((a.tobytes(), a.shape, a.dtype, p._rg, None)
                            if type(a) is ndarray else _array_snap(a, p))
                    u = updates.get(tid)
                    if u is None:
                        updates[tid] = {"value": snap}
                    else:
                        u["value"] = snap
        except Exception as exc:
            self._fail(exc)

    def _light_on_inplace(self, tensor, op_name: str, version: int) -> None:
        try:
            self._tally[_INPLACE] += 1
            if isinstance(tensor, Tensor) and not self._is_grad(tensor):
                self._light_update(tensor, "value", self._snap(tensor))
        except Exception as exc:
            self._fail(exc)

    def _light_survivors(self) -> None:
        """As the first full window after light ones opens: the leaves the program's variables
        hold that a light window made (W2's `params`, remade every epoch) become definitions
        the summary keeps, named after their variables, with their `.grad`, so that the kept
        iterations can name them (they are carried in the elided event, as a full window's
        would be)."""
        f: FrameType | None = _getframe(2)
        filename = self.filename
        while f is not None and f.f_code.co_filename != filename:
            f = f.f_back
        if f is None:
            return
        summary, tids = self._elided, self._tids
        for name, value in list(f.f_locals.items()):
            if (type(value) is not Tensor or value._uid in tids or value.grad_fn is not None
                    or name[:1] == "_"):
                continue
            tid = self._new_tid(value)
            if name in self._light_names and self._bound.get(name, 0) > 1:
                # the light window that just closed counted this very binding already
                self._bound[name] -= 1
            self._give_name(tid, name)
            summary.keep(("tensor", f.f_lineno, tid, self._snap_tensor(value), "loop",
                          _grad_state.enabled, None))
            g = value._grad
            if g is not None:
                self._track_grad(tid, g)
                summary.updates.setdefault(tid, {})["grad"] = self._snap(g)

    def _plan_next(self, frame, line) -> None:
        """At a pass: whether the window after this one is light (see the module's doc)."""
        if len(self._head) < self.limits["detail_head"] or self._dead:
            self._next_light = False
            return
        left = self._loops.remaining(frame, line)
        # this pass's window closes; the next is light if at least detail_tail more passes
        # follow it: every one of the loop's remaining iterations makes one
        self._next_light = left is not None and left - 1 >= self.limits["detail_tail"]


# The listener's methods, by name, and the kinds of event they report, which index the tally
LISTENED = tuple(name for name in vars(_events.Listener) if name.startswith("on_"))
KINDS = tuple(name[3:] for name in LISTENED)
_NONE_YET = [0] * len(KINDS)
_BACKWARD_BEGIN, _BACKWARD_END, _ACCUMULATE, _GRAD_RESET, _OPTIMIZER_STEP, _INPLACE = (
    KINDS.index(k) for k in ("backward_begin", "backward_end", "accumulate", "grad_reset",
                             "optimizer_step", "inplace"))


def _counter(tally: list, i: int):
    """A listener method that only counts its event, in `tally[i]`."""
    def count(*_args) -> None:
        tally[i] += 1
    return count
