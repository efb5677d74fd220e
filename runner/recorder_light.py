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

The methods here stand in for the listener's while `_light` is set (`runner/recorder.py`'s
`_guarded` picks them, and `on_op` and `on_node_apply` find the window cap at -1); a kind with
no method of its own is only counted.
"""
from __future__ import annotations

import sys
from types import FrameType

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
        """Add the ops and node applications counted inline (on_op, on_node_apply) to the
        summary's counts."""
        counts = self._elided.counts
        if self._light_ops:
            counts["op"] = counts.get("op", 0) + self._light_ops
        if self._light_applies:
            counts["node_apply"] = counts.get("node_apply", 0) + self._light_applies
        self._light_ops = self._light_applies = 0

    def _light_update(self, t, key: str, snap) -> None:
        tid = self._tids.get(t._uid)
        if tid is not None:
            self._elided.updates.setdefault(tid, {})[key] = snap

    # ---- the listener's methods, light ------------------------------------------------------
    def _light_on_backward_begin(self, roots, grad_tensors, retain_graph, create_graph, inputs,
                                 api) -> None:
        line, frame, _ = self._where()
        k = self._passes
        self._passes += 1
        summary = self._elided
        if summary.first_pass is None:
            summary.first_pass = k
        summary.last_pass = k
        first = roots[0]._data if roots else None
        if first is not None and first.size == 1:
            self._series.append([k, num(first.item(), self.limits["digits"])])
        self._light_count("backward_begin")
        self._plan_next(frame, line)

    def _light_on_backward_end(self, api: str) -> None:
        self._light_count("backward_end")
        self._last_grad = None
        if self._next_light:
            # The next window is light too: what follows the pass (optimizer.step(), a
            # print) goes into the same summary, in the same order, whichever of the two
            # windows holds it, so the window closes now. Left open, every event up to the
            # next iteration's first would first ask whether it comes from inside
            # optimizer.step() (a walk up the stack), to know which window it belongs to.
            self._close_window()
        else:
            self._closing = True

    def _light_on_accumulate(self, tensor, before, added, after) -> None:
        self._light_count("accumulate")
        tid = self._tids.get(tensor._uid)
        if tid is not None:
            self._track_grad(tid, after)
            self._elided.updates.setdefault(tid, {})["grad"] = self._snap(after)

    def _light_on_grad_reset(self, tensor, how: str) -> None:
        self._light_count("grad_reset")
        tid = self._tids.get(tensor._uid)
        if tid is not None:
            g = tensor._grad
            self._track_grad(tid, g)
            self._elided.updates.setdefault(tid, {})["grad"] = (
                None if g is None else self._snap(g))

    def _light_on_optimizer_step(self, optimizer, params, before, after) -> None:
        self._light_count("optimizer_step")
        for p, a in zip(params, after):
            self._light_update(p, "value", _array_snap(a, p))

    def _light_on_inplace(self, tensor, op_name: str, version: int) -> None:
        self._light_count("inplace")
        if isinstance(tensor, Tensor) and not self._is_grad(tensor):
            self._light_update(tensor, "value", self._snap(tensor))

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


