"""A whole recurrent layer unrolls in the picture: each time step of each layer and direction is
a scope inside the layer's call (runner/recorder_scopes.py) and a group inside its group
(app/services/groups.py), while the parameters' AccumulateGrads stay in the layer's group."""
from __future__ import annotations

import pytest

from gradstep.app.services.compact import folded_modules
from gradstep.app.services.graph import graph_from_trace
from gradstep.app.services.groups import assign_groups
from gradstep.runner import run_program


def traced(source: str) -> dict:
    result = run_program(source, filename="rnn.py", trace=True)
    assert result.error is None, result.error
    return result.trace


def grouped(trace: dict):
    graph = graph_from_trace(trace)
    graph.groups = groups = assign_groups(trace, graph)
    return graph, groups


RNN = """\
import torch
from torch import nn
torch.manual_seed(0)
rnn = nn.RNN(2, 3, batch_first=True)
x = torch.randn(1, 4, 2)
out, h = rnn(x)
out.sum().backward()
"""


def test_each_step_of_a_layer_is_a_scope_inside_its_call():
    trace = traced(RNN)
    steps = [s for s in trace["scopes"] if s.get("step")]
    (layer,) = [s for s in trace["scopes"] if not s.get("step")]
    assert layer["path"] == "rnn" and layer["type"] == "RNN"
    assert [(s["path"], s["at"], s["type"], s["parent"]) for s in steps] == [
        ("rnn.l0", f"t={t}", "RNN step", "rnn") for t in range(4)]
    for s in steps:     # inside the layer's ranges, one after the other
        assert layer["t"][0] <= s["t"][0] < s["t"][1] <= layer["t"][1]
    assert all(a["n"][1] <= b["n"][0] for a, b in zip(steps, steps[1:]))
    # a step holds the step's own nodes: w_hh's transpose, its product, the add and the tanh
    names = {e["node"]["id"]: e["node"]["name"] for e in trace["events"]
             if e["kind"] == "op" and e.get("node")}
    first = [names[f"n{k}"] for k in range(*steps[0]["n"]) if f"n{k}" in names]
    assert first[-3:] == ["AddmmBackward0", "AddBackward0", "TanhBackward0"]


def test_the_picture_groups_each_step_and_keeps_accumulators_in_the_layer():
    graph, groups = grouped(traced(RNN))
    for t in range(4):
        key = f"rnn.l0 @ t={t}"
        assert groups[key]["parent"] == "rnn"
        assert groups[key]["label"] == f"{key} · RNN step"
        kinds = sorted(n.label for n in graph.nodes.values() if n.group == key
                       and n.kind == "op")
        assert kinds == ["AddBackward0", "AddmmBackward0", "TBackward0", "TanhBackward0"]
    accumulators = [n for n in graph.nodes.values() if n.kind == "accumulate"]
    assert len(accumulators) == 4
    assert {n.group for n in accumulators} == {"rnn"}


@pytest.mark.parametrize("cls,dtype,stepped", [
    ("GRU", "", True), ("RNN", "", True), ("LSTM", ", dtype=torch.float64", True),
    ("LSTM", "", False)])    # a float32 LSTM layer is one fused node: no steps to show
def test_two_layers_both_ways_name_each_layer_and_direction(cls, dtype, stepped):
    source = f"""\
import torch
from torch import nn
torch.manual_seed(0)
net = nn.{cls}(2, 3, num_layers=2, bidirectional=True{dtype})
x = torch.randn(3, 1, 2{dtype})
out, _ = net(x)
out.sum().backward()
"""
    steps = [(s["path"], s["at"]) for s in traced(source)["scopes"] if s.get("step")]
    expected = [(f"net.l{layer}{suffix}", f"t={t}") for layer in range(2)
                for suffix, order in (("", range(3)), ("_reverse", range(2, -1, -1)))
                for t in order]
    assert steps == (expected if stepped else [])


def test_a_packed_sequence_steps_too():
    source = """\
import torch
from torch import nn
from torch.nn.utils.rnn import pack_padded_sequence
torch.manual_seed(0)
gru = nn.GRU(2, 3)
x = torch.randn(3, 2, 2)
out, h = gru(pack_padded_sequence(x, [3, 2]))
h.sum().backward()
"""
    steps = [(s["path"], s["at"]) for s in traced(source)["scopes"] if s.get("step")]
    assert steps == [("gru.l0", f"t={t}") for t in range(3)]


def test_a_layer_in_a_training_loop_keeps_its_steps_in_the_kept_iterations():
    source = RNN.replace("out, h = rnn(x)\nout.sum().backward()\n", """\
opt = torch.optim.SGD(rnn.parameters(), lr=0.1)
for epoch in range(30):
    opt.zero_grad()
    out, h = rnn(x)
    out.sum().backward()
    opt.step()
""")
    trace = traced(source)
    passes = [s["pass"] for s in trace["scopes"] if s.get("step")]
    # four steps in each iteration recorded in full, the first and the last among them; the
    # summarised middle records none
    kept = sorted(set(passes))
    assert kept[0] == 0 and kept[-1] == 29 and 15 not in kept
    assert all(passes.count(p) == 4 for p in kept)


def test_the_compact_picture_folds_the_layer_whole_not_its_steps():
    source = RNN.replace("out, h = rnn(x)", "out, h = rnn(x)\nout = nn.Linear(3, 1)(out)")
    graph, groups = grouped(traced(source))
    assert groups["rnn.l0 @ t=2"]["step"] is True and "step" not in groups["rnn"]
    folded = folded_modules(graph)
    assert set(folded) == {"rnn", "Linear"}
    # the layer's box stands for its steps' boxes too
    assert {graph.nodes[i].group for i in folded["rnn"]} == {"rnn"} | {
        f"rnn.l0 @ t={t}" for t in range(4)}
