"""The answer's size budget (app/services/answer_budget.py): the trace and the graph's
pictures together stay under GRADSTEP_ANSWER_MAX_BYTES, pictures that would not fit are left
out (and never laid out), and the answer says so."""
from __future__ import annotations

import importlib.util
import json

import pytest

from gradstep.app.services.answer_budget import PictureBudget, estimate, picture_bytes
from gradstep.app.services.graph import graph_from_trace
from gradstep.app.services.layout import OverBudget, lay_out, layout_trace
from app_fakes import FakeResult
from app_testing import ROOT, fake_client

# A loop whose graph grows by one op an iteration: each iteration is a picture of its own.
GROWING = """\
import torch
x = torch.ones(3, requires_grad=True)
for i in range(5):
    y = x
    for j in range(i + 1):
        y = y * 2
    y.sum().backward()
print(x.grad)
"""


def _record(source: str) -> tuple[dict, bytes]:
    path = ROOT / "tests" / "fixtures" / "traces" / "regen.py"
    spec = importlib.util.spec_from_file_location("trace_regen", path)
    regen = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(regen)
    trace, out, code = regen.record_program(source, "main.py")
    assert code == 0
    return trace, regen.T.dump(trace)


@pytest.fixture(scope="module")
def growing():
    return _record(GROWING)


class TracePool:
    """Answers every program with one recorded trace, its bytes as the sandbox sends them."""

    size = 1

    def __init__(self, trace: dict, raw: bytes) -> None:
        self.trace, self.raw = trace, raw

    def run(self, source: str, **_) -> FakeResult:
        result = FakeResult("tensor([62., 62., 62.])\n", trace=self.trace)
        result.trace_json = self.raw      # type: ignore[attr-defined]
        return result

    def ping(self) -> float:
        return 0.001

    def close(self) -> None:
        pass


def _pictures(layout: dict) -> list[dict]:
    """The first picture (the top level without its run-wide fields) and the views."""
    first = {k: v for k, v in layout.items() if k not in ("views", "steps", "iterations")}
    return [first, *layout["views"]]


def _answer(trace, raw, **settings) -> tuple[dict, int]:
    with fake_client(TracePool(trace, raw), **settings) as c:
        r = c.post("/api/run", json={"code": "x"})
        assert r.status_code == 200, r.text
        return r.json(), len(r.content)


def test_a_normal_program_is_unchanged(growing):
    trace, raw = growing
    body, size = _answer(trace, raw)
    assert "layout_budget" not in body and body["layout_note"] is None
    assert body["layout"] == json.loads(json.dumps(layout_trace(trace)))
    assert len(_pictures(body["layout"])) == 5
    assert not any(p.get("dropped") for p in _pictures(body["layout"]))
    assert size < 4_000_000


def test_pictures_over_the_budget_are_left_out_and_the_answer_says_so(growing):
    trace, raw = growing
    full, full_size = _answer(trace, raw)
    sizes = [picture_bytes(p) for p in _pictures(full["layout"])]
    # room for the first two pictures and a little more, not for the third
    budget = full_size - sum(sizes[2:]) + sizes[2] // 2
    body, size = _answer(trace, raw, answer_max_bytes=budget)
    assert size <= budget < full_size
    assert body["layout_budget"] == {"max_bytes": budget, "pictures": 5, "drawn": 2}
    assert "3 of the run's 5 pictures are not drawn" in body["layout_note"]
    pictures = _pictures(body["layout"])
    assert [bool(p.get("dropped")) for p in pictures] == [False, False, True, True, True]
    assert pictures[:2] == _pictures(full["layout"])[:2]
    assert pictures[4]["nodes"] == {} and pictures[4]["svg"].startswith("<svg")
    # the trace and the steps are all there: only pictures went
    assert body["trace"] == full["trace"]
    assert body["layout"]["iterations"] == full["layout"]["iterations"]


def test_no_room_for_the_first_picture_means_no_layout(growing):
    trace, raw = growing
    budget = len(raw) + 1000
    body, size = _answer(trace, raw, answer_max_bytes=budget)
    assert size <= budget
    assert body["layout"] is None
    assert body["layout_note"].startswith("The graph is not drawn")
    assert body["layout_budget"] == {"max_bytes": budget, "pictures": 5, "drawn": 0}


def test_left_out_pictures_are_never_laid_out(growing):
    trace, _ = growing
    laid = []

    def counting(graph, max_nodes=None, dot_runner=None):
        laid.append(len(graph.nodes))
        return lay_out(graph, max_nodes, dot_runner)

    sizes = [picture_bytes(p) for p in _pictures(layout_trace(trace))]
    budget = PictureBudget(max_bytes=sizes[0] + sizes[1] + sizes[2] // 2)
    out = layout_trace(trace, lay=counting, budget=budget)
    assert len(laid) == 2 and budget.dropped == 3
    assert budget.used <= budget.max_bytes
    assert [bool(p.get("dropped")) for p in _pictures(out)] == [False, False, True, True, True]
    with pytest.raises(OverBudget):
        layout_trace(trace, lay=counting, budget=PictureBudget(max_bytes=100))
    assert len(laid) == 2


def test_the_estimate_errs_on_the_large_side(growing):
    trace, _ = growing
    graph = graph_from_trace(trace)
    assert estimate(graph) >= picture_bytes(lay_out(graph))
