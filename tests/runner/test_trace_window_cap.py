"""A loop with no backward pass keeps the recorder's memory bounded (NOTE [window cap]).

Records of one window past the event cap can never be rendered, so the recorder only counts
ops, tensors and node applications there. What the trace says must not change: the counts of
the elided event still add up to every op the program ran, output printed past the cap is
kept, and a later backward pass is recorded in full again.
"""
from __future__ import annotations

import dataclasses

import gradstep.engine as torch
from gradstep.engine import _events
from gradstep.runner import trace as T
from gradstep.runner.recorder import Recorder

CAP = 300


def _trace(source: str) -> tuple[dict, Recorder]:
    rec = Recorder(source, "loop.py", {"max_events": CAP})
    old = _events.set_listener(rec)
    try:
        exec(compile(source, "loop.py", "exec"), {"torch": torch})
    finally:
        _events.set_listener(old)
    trace = rec.finish(0)
    T.validate(trace)
    return trace, rec


def _counted(trace: dict, kind: str) -> int:
    shown = sum(1 for e in trace["events"] if e["kind"] == kind)
    elided = sum(e["counts"].get(kind, 0) for e in trace["events"] if e["kind"] == "elided")
    return shown + elided


def test_records_stop_growing_past_the_cap_and_every_op_is_still_counted():
    n = 10 * CAP
    trace, rec = _trace(f"x = torch.ones(3)\nfor i in range({n}):\n    x = x * 1.0\n"
                        "s = x.sum()\n")
    assert len(rec._window) <= CAP + 2          # the cap and one overflow record
    assert _counted(trace, "op") == n + 1       # every multiply and the final sum
    assert trace["events"][-1]["counts"]["ops"] == n + 1
    assert any(e["kind"] == "elided" for e in trace["events"])


def test_output_printed_past_the_cap_reaches_the_trace(pool, small_limits):
    limits = dataclasses.replace(small_limits, max_trace_events=CAP)
    result = pool.run(f"import torch\nx = torch.ones(3)\nfor i in range({10 * CAP}):\n"
                      "    x = x * 1.0\nprint('done', x.sum().item())\n", limits=limits)
    assert result.exit_code == 0 and result.stdout == "done 3.0\n"
    events = result.trace["events"]
    printed = "".join(e.get("stdout", "") for e in events if e["kind"] == "elided")
    printed += "".join(e["text"] for e in events if e["kind"] == "stdout")
    assert printed == "done 3.0\n"
    assert sum(e["counts"].get("op", 0) for e in events if e["kind"] == "elided") > 8 * CAP


def test_a_backward_after_a_long_loop_is_recorded_in_a_fresh_window():
    n = 3 * CAP
    trace, _ = _trace(f"x = torch.ones(3)\nfor i in range({n}):\n    x = x + 0.0\n"
                      "w = torch.ones(2, requires_grad=True)\n(w * 2).sum().backward()\n"
                      "print(w.grad)\n")
    kinds = [e["kind"] for e in trace["events"]]
    assert _counted(trace, "op") == n + 2
    # the pass after the loop opens a new window, below the cap: its nodes are recorded
    assert "node_apply" in kinds or any(
        e["kind"] == "elided" and e["counts"].get("node_apply") for e in trace["events"])
