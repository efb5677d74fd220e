"""The windowed picture (app/services/windowed.py): a chain too long to draw is drawn as its
first and last steps with the middle folded into one box that counts the ops it stands for,
the ops the trace's cap left out included; what can be drawn whole is drawn whole."""
from __future__ import annotations

import importlib.util
from pathlib import Path

import pytest

from gradstep.app.services.answer_budget import ANSWER_MAX_BYTES, PictureBudget
from gradstep.app.services.graph import graph_from_trace
from gradstep.app.services.layout import layout_trace
from gradstep.app.services.windowed import KEEP, op_lines, windowed_graph

_spec = importlib.util.spec_from_file_location(
    "windowed_regen", Path(__file__).resolve().parents[1] / "fixtures" / "traces" / "regen.py")
regen = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(regen)


def chain(n: int, body: str = "x = x * 1.0001") -> dict:
    source = (f"import torch\nx = torch.tensor([1.0, 2.0], requires_grad=True)\n"
              f"for i in range({n}):\n    {body}\nx.sum().backward()\n")
    trace, _, code = regen.record_program(source, "main.py")
    assert code == 0
    return trace


@pytest.fixture(scope="module")
def long_chain() -> dict:
    return chain(5000)


def test_a_5000_op_chain_too_big_to_draw_is_drawn_windowed(long_chain):
    budget = PictureBudget(ANSWER_MAX_BYTES, used=2_000_000)   # the trace took its 2 MB
    assert not budget.fits(graph_from_trace(long_chain))
    layout = layout_trace(long_chain, 5000, budget=budget)
    (box, run), = layout["runs"].items()
    assert run["op"] == "MulBackward0"
    # 2 * KEEP products are drawn; the fold counts the rest, the capped stretch's included
    drawn = [i for i, n in layout["nodes"].items() if n["tip"].startswith("MulBackward0")]
    assert len(drawn) == 2 * KEEP and run["ops"] == 5000 - 2 * KEEP
    assert len(layout["nodes"]) < 60 and box in layout["nodes"]
    # the leaf, the result the pass starts from and the arrows either side of the fold
    tips = [n["tip"] for n in layout["nodes"].values()]
    assert any(t.startswith("x: ") for t in tips) and any(t.startswith("x₅₀₀₁: ") for t in tips)
    ends = [(e["from"], e["to"]) for e in layout["edges"] if box in (e["from"], e["to"])]
    assert len(ends) == 2
    # every id it stands for is a node or a result of the trace, none drawn elsewhere
    assert not set(run["members"]) & set(layout["nodes"])


def test_a_chain_that_fits_is_drawn_whole():
    trace = chain(40)
    layout = layout_trace(trace, 5000, budget=PictureBudget(ANSWER_MAX_BYTES))
    assert "runs" not in layout
    assert len(layout["nodes"]) > 80


def test_only_alike_steps_that_follow_each_other_fold():
    # two different ops alternate: each step's op differs from the one before, nothing folds
    trace = chain(60, "x = (x * 1.0001).sin() if i % 2 else x + 1.0")
    graph = graph_from_trace(trace)
    lines, gaps = op_lines(trace["events"])
    small, runs = windowed_graph(graph, lines, gaps)
    assert runs == {} and small is graph
