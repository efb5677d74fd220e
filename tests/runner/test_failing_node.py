"""The node a trace marks with a backward pass's error is the node PyTorch raised at.

`failing_node/expected/*.json` were recorded from real PyTorch by
`dev/record_failing_node.py` (node hooks, cross-checked with anomaly mode): the error's type,
the failing node's class name, and the line of the op that made it (or, for an
`AccumulateGrad`, the program's name for its leaf). Here each case runs in the sandbox with a
trace, and the trace's first error must name the same node.
"""
import json
from pathlib import Path

import pytest

HERE = Path(__file__).parent / "failing_node"
CASES = sorted(p.stem for p in (HERE / "cases").glob("*.py"))


def _nodes(events: list) -> dict:
    """node id -> (name, line of the event that introduced it, variable tensor id)."""
    nodes = {}
    for e in events:
        found = [e.get("node")] + list(e.get("new_nodes") or [])
        for n in found:
            if isinstance(n, dict) and n["id"] not in nodes:
                nodes[n["id"]] = (n["name"], e["line"], n.get("variable"))
    return nodes


def _names(events: list) -> dict:
    names = {}
    for e in events:
        t = e.get("tensor") if e["kind"] == "tensor" else e.get("output")
        if isinstance(t, dict) and t.get("name"):
            names.setdefault(t["id"], t["name"])
    return names


def test_there_are_golden_cases_of_every_kind():
    assert len(CASES) >= 12
    for kind in ("inplace_", "second_backward_", "hook_", "anomaly_", "_cut"):
        assert any(kind in c for c in CASES), kind


@pytest.mark.parametrize("case", CASES)
def test_trace_marks_the_node_pytorch_raised_at(pool, case):
    expected = json.loads((HERE / "expected" / f"{case}.json").read_text())
    source = (HERE / "cases" / f"{case}.py").read_text()
    result = pool.run(source, trace=True)
    events = result.trace["events"]
    errors = [e for e in events if e["kind"] == "error"]
    assert errors, "the trace has no error"
    error = errors[0]
    assert error["type"] == expected["type"]
    if expected["node"] is None:
        assert error["node"] is None
        return
    assert error["node"] is not None, "the trace names no node"
    name, line, variable = _nodes(events)[error["node"]]
    assert name == expected["node"]
    if expected["variable"] is not None:
        assert _names(events).get(variable) == expected["variable"]
    else:
        assert line == expected["line"]
