"""Forward mode in the trace: inside a dual level each op event carries its output's tangent,
and entering and leaving the level are events (docs/trace-format.md, "Forward mode")."""
from gradstep.runner import trace as T

PROGRAM = """\
import torch
import torch.autograd.forward_ad as fwAD

x = torch.tensor([1.0, 2.0])
v = torch.tensor([1.0, 0.0])
with fwAD.dual_level():
    xd = fwAD.make_dual(x, v)
    a = xd * xd
    y = a.sin()
    out, tangent = fwAD.unpack_dual(y)
b = x * 2
print(tangent)
"""


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
