"""Forward mode in the trace: inside a dual level each op event carries its output's tangent,
and entering and leaving the level are events (docs/trace-format.md, "Forward mode")."""
from pathlib import Path

from gradstep.runner import trace as T

# The fixture program the player's tests step through too (tests/fixtures/traces/regen.py).
PROGRAM = (Path(__file__).parents[1] / "fixtures" / "traces" / "programs"
           / "forward_ad_tangents.py").read_text(encoding="utf-8")


def _events(pool, source=PROGRAM):
    trace = pool.run(source, trace=True).trace
    T.validate(trace)
    return trace["events"]


def test_each_op_in_a_dual_level_carries_its_outputs_tangent(pool):
    ops = {e["output"]["name"]: e for e in _events(pool) if e["kind"] == "op"}
    assert ops["xd"]["tangent"]["data"] == [1.0, 0.0]          # make_dual's, the one given
    assert ops["a"]["tangent"]["data"] == [2.0, 0.0]           # d(x²) = 2x·v
    assert ops["y"]["tangent"]["data"] == [1.0806, -0.0]       # cos(x²)·2x·v, at x₀ = 1
    assert "tangent" not in ops["out"]                         # the primal has none
    assert "tangent" not in ops["b"]                           # after the level: none


def test_entering_and_leaving_the_level_are_events_on_the_with_line(pool):
    events = _events(pool)
    levels = [(e["entered"], e["level"], e["line"]) for e in events if e["kind"] == "dual_level"]
    assert levels == [(True, 0, 6), (False, 0, 6)]
    kinds = [e["kind"] for e in events]
    enter, leave = (i for i, k in enumerate(kinds) if k == "dual_level")
    assert all(kinds[i] == "op" for i in range(enter + 1, leave))


def test_a_run_without_forward_mode_has_no_tangents(pool):
    events = _events(pool, "import torch\nx = torch.ones(2, requires_grad=True)\n(x * 3).sum()\n")
    assert not any("tangent" in e or e["kind"] == "dual_level" for e in events)
