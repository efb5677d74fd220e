"""Layouts are reused by the graph they draw (its DOT text), not by the program's text."""
from __future__ import annotations

import importlib.util
import json
import re
from pathlib import Path

from gradstep.app.services.cache import LruCache
from gradstep.app.services.groups import assign_groups
from gradstep.app.services.layout import graph_from_trace, lay_out, run_dot
from gradstep.app.services.layout_reuse import lay_out_reusing

HERE = Path(__file__).resolve().parents[1] / "fixtures" / "traces"
spec = importlib.util.spec_from_file_location("trace_regen_layout", HERE / "regen.py")
regen = importlib.util.module_from_spec(spec)
spec.loader.exec_module(regen)

PROGRAM = """\
import torch
w = torch.tensor([1.0, 0.0], requires_grad=True)
x = torch.tensor([0.5, 2.0])
for epoch in range(EPOCHS):
    loss = ((w * x).sum() - 3.0) ** 2
    loss.backward()
    with torch.no_grad():
        w -= LR * w.grad
    w.grad = None
print(loss.item())
"""


class CountingDot:
    def __init__(self):
        self.calls = 0

    def __call__(self, source, boxes):
        self.calls += 1
        return run_dot(source)


def _trace(epochs: int, lr: float) -> dict:
    source = PROGRAM.replace("EPOCHS", str(epochs)).replace("LR", repr(lr))
    trace, _, code = regen.record_program(source, "main.py")
    assert code == 0
    return trace


def _graph(trace: dict):
    """The whole run's graph with its module groups, as the server draws one picture."""
    graph = graph_from_trace(trace)
    graph.groups = assign_groups(trace, graph)
    return graph


def _layout(trace: dict, dot, cache=None) -> dict:
    return lay_out_reusing(_graph(trace), None, dot, cache)


def _shifted(trace: dict, by: int) -> dict:
    """The trace with every tensor and node id moved up by `by`."""
    text = re.sub(r'"([tn])(\d+)"', lambda m: f'"{m.group(1)}{int(m.group(2)) + by}"',
                  json.dumps(trace))
    return json.loads(text)


def test_an_edited_program_with_the_same_graph_reuses_its_layout():
    cache, dot = LruCache(8), CountingDot()
    first = _layout(_trace(20, 0.1), dot, cache)
    # another rate: the same graph and names (more epochs would rename the last loss, loss₂₀
    # becoming loss₃₀, and a label's width is part of the layout); its ids shifted, as a
    # program that made a few tensors first would have them
    edited = _shifted(_trace(20, 0.05), 100)
    again = _layout(edited, dot, cache)
    assert dot.calls == 1 and len(cache) == 1
    assert set(again["nodes"]) != set(first["nodes"])
    # what a Graphviz run on this program's own graph gives, to the byte
    assert again == lay_out(_graph(edited))


def test_a_different_graph_is_laid_out_again():
    cache, dot = LruCache(8), CountingDot()
    one = _layout(_trace(20, 0.1), dot, cache)
    other = _layout(_trace(1, 0.1), dot, cache)  # no elided middle: fewer boxes
    assert dot.calls == 2 and len(cache) == 2
    assert set(one["nodes"]) != set(other["nodes"])


def test_without_a_cache_every_layout_runs_dot():
    dot = CountingDot()
    _layout(_trace(20, 0.1), dot)
    _layout(_trace(20, 0.1), dot)
    assert dot.calls == 2


def test_the_golden_traces_lay_out_as_without_reuse():
    cache = LruCache(64)
    for path in sorted(HERE.glob("*.json")):
        trace = json.loads(path.read_text(encoding="utf-8"))
        assert _layout(trace, None, cache) == lay_out(_graph(trace)), path.name


def test_the_server_lays_out_an_edited_program_once(real_client):
    source = PROGRAM.replace("EPOCHS", "20")
    layouts = real_client.app.state.runs.layouts
    first = real_client.post("/api/run", json={"code": source.replace("LR", "0.1")})
    hits, misses = layouts.hits, layouts.misses
    again = real_client.post("/api/run", json={"code": source.replace("LR", "0.02")})
    # each of the second program's pictures (one per iteration shown) was found, none laid out
    assert layouts.hits > hits and layouts.misses == misses
    assert first.status_code == again.status_code == 200
    a, b = first.json()["layout"], again.json()["layout"]
    assert a["width"] == b["width"] and len(a["nodes"]) == len(b["nodes"])
    assert set(b["nodes"]) <= {i for e in again.json()["trace"]["events"]
                               for i in _defined(e)}


def _defined(event: dict) -> list:
    from gradstep.runner.trace import defined_ids
    return defined_ids(event)
