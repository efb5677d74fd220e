"""An LSTM cell's gates are named in the picture (app/services/gates.py): the sigmoid and tanh
results of the four pieces PyTorch's cell cuts its gates into, in PyTorch's order i, f, g, o;
the node names stay PyTorch's, and no other cell's boxes are renamed."""
from __future__ import annotations

from collections import Counter

import pytest

from gradstep.app.services.cache import LruCache
from gradstep.app.services.gates import GATES
from gradstep.app.services.graph import graph_from_trace
from gradstep.app.services.groups import assign_groups
from gradstep.app.services.layout_reuse import lay_out_reusing
from gradstep.runner import run_program

PROGRAM = """\
import torch
from torch import nn
torch.manual_seed(0)
cell = nn.{cls}(2, 3{extra})
xs = torch.randn(2, 1, 2{dtype})
h = torch.zeros(1, 3{dtype})
c = torch.zeros(1, 3{dtype})
for t in range(2):
    {call}
h.sum().backward()
"""
CALLS = {"LSTMCell": "h, c = cell(xs[t], (h, c))", "GRUCell": "h = cell(xs[t], h)",
         "RNNCell": "h = cell(xs[t], h)"}
# a float64 nn.LSTM layer is recorded step by step, as PyTorch records it
LSTM64 = """\
import torch
from torch import nn
torch.manual_seed(0)
lstm = nn.LSTM(2, 3).double()
x = torch.randn(2, 1, 2, dtype=torch.float64)
out, _ = lstm(x)
out.sum().backward()
"""


def graph_of(source: str):
    result = run_program(source, filename="cells.py", trace=True)
    assert result.error is None, result.error
    graph = graph_from_trace(result.trace)
    graph.groups = assign_groups(result.trace, graph)
    return graph


def cell_program(cls: str) -> str:
    return PROGRAM.format(cls=cls, extra="", dtype="", call=CALLS[cls])


def test_each_step_of_an_lstm_cell_has_its_four_gates_in_pytorchs_order():
    graph = graph_of(cell_program("LSTMCell"))
    gates = [n for n in graph.nodes.values() if n.gate]
    assert Counter(n.gate for n in gates) == {"i": 2, "f": 2, "g": 2, "o": 2}
    for n in gates:
        assert n.label == GATES[n.gate] and n.sublabel == "(1, 3)" and n.kind == "tensor"
        assert n.group.startswith("cell @ t=")
        # the box's maker is the activation PyTorch applies to that piece
        maker = next(graph.nodes[e.src].label for e in graph.edges.values()
                     if e.dst == n.id and e.kind == "output")
        assert maker == ("TanhBackward0" if n.gate == "g" else "SigmoidBackward0")
    assert {"UnsafeSplitBackward0", "SigmoidBackward0"} <= {n.label for n in graph.nodes.values()}


@pytest.mark.parametrize("cls", ["GRUCell", "RNNCell"])
def test_other_cells_have_no_gates_named(cls):
    graph = graph_of(cell_program(cls))
    assert not [n for n in graph.nodes.values() if n.gate]
    assert not {n.label for n in graph.nodes.values()} & set(GATES.values())


def test_a_layer_recorded_step_by_step_names_the_gates_of_every_step():
    graph = graph_of(LSTM64)
    assert Counter(n.gate for n in graph.nodes.values() if n.gate) == {
        "i": 2, "f": 2, "g": 2, "o": 2}


def test_the_layout_carries_each_gate_also_when_reused_from_the_cache():
    graph = graph_of(cell_program("LSTMCell"))
    cache = LruCache(4)
    first = lay_out_reusing(graph, cache=cache)
    again = lay_out_reusing(graph_of(cell_program("LSTMCell")), cache=cache)
    for layout in (first, again):
        marked = {i: box["gate"] for i, box in layout["nodes"].items() if "gate" in box}
        assert sorted(marked.values()) == sorted("iiffggoo")
        assert all(graph.nodes[i].gate == g for i, g in marked.items())
        assert "forget gate" in layout["svg"]
