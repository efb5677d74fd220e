"""The recorder's forward-mode events: dual levels, and the tangent each op's output carries
(docs/trace-format.md, "Forward mode").

Inside `forward_ad.dual_level()` every op pushes its inputs' tangents forward; the trace gives
each op event the tangent of its output (`tangent`), so the page can draw it as the forward
pass steps. Reading a tangent is one dict look-up per op, and only while a level is open:
entering a level puts `_on_op_dual` in front of the recorder's `on_op` (an attribute of the
instance, found before the class's method), and leaving removes it, so a run without forward
mode pays nothing.

`make_dual` reports its op before the tangent is attached to the new tensor, so that op's
tangent is read at the next op instead (`_dual_pending`).
"""
from __future__ import annotations

from gradstep.engine.autograd.forward_ad import tangent_of
from .recorder_state import RecorderState


class TangentEvents(RecorderState):
    """Recorder methods for dual levels (runner/recorder.py's Recorder has the state)."""

    _dual_pending: tuple | None = None

    def on_dual_level(self, level: int, entered: bool) -> None:
        line, _, _ = self._where()
        self._settle()
        own = vars(self)
        installed = "on_op" in own
        if entered and not installed:
            own["on_op"] = self._on_op_dual
            self._op_depth += 1         # one more frame between the engine and the op's line
        elif not entered and installed:
            del own["on_op"]
            self._op_depth -= 1
            self._dual_pending = None
        if len(self._window) > self._window_cap:
            return self._count_past_cap("dual_level")
        self._window.append(("dual_level", line, int(level), bool(entered)))

    def _on_op_dual(self, op_name: str, inputs: tuple, output, node) -> None:
        pending = self._dual_pending
        if pending is not None:
            self._dual_pending = None
            self._keep_tangent(*pending)
        window = self._window
        n = len(window)
        type(self).on_op(self, op_name, inputs, output, node)   # the class's own
        if len(window) <= n or window[-1][0] != "op":
            return                      # nothing recorded (past the cap, a quiet file)
        rec = window[-1]
        if not self._keep_tangent(rec, output) and op_name == "make_dual":
            self._dual_pending = (rec, output)

    def _keep_tangent(self, rec: tuple, output) -> bool:
        tangent = tangent_of(output)
        if tangent is None:
            return False
        self._op_tangents[id(rec)] = (rec, self._snap(tangent))
        return True
