"""A fused kernel is one op in the trace, as it is one node in PyTorch's graph: a float32
`nn.LSTM` layer (MkldnnRnnLayerBackward0) and 4-D attention
(ScaledDotProductFlashAttentionForCpuBackward0). The engine ops it is computed with, forward
and again in backward, are not steps of the program; the picture draws the fused node's
arrows once although it has several outputs."""
from __future__ import annotations

from collections import Counter

from gradstep.app.services.graph import graph_from_trace
from gradstep.runner import run_program

LSTM = """\
import torch
from torch import nn
torch.manual_seed(0)
lstm = nn.LSTM(input_size=1, hidden_size=2, num_layers=2)
x = torch.randn(3, 1, 1)
out, (h, c) = lstm(x)
out.sum().backward()
print(lstm.weight_hh_l0.grad.sum())
"""

SDPA = """\
import torch
import torch.nn.functional as F
torch.manual_seed(0)
q = torch.randn(1, 1, 3, 2, requires_grad=True)
k = torch.randn(1, 1, 3, 2, requires_grad=True)
v = torch.randn(1, 1, 3, 2, requires_grad=True)
out = F.scaled_dot_product_attention(q, k, v)
out.sum().backward()
print(out.grad_fn.name(), q.grad.shape)
"""


def trace_of(program: str) -> dict:
    result = run_program(program, filename="fused.py", trace=True)
    assert result.error is None, result.error
    return result.trace


def kinds(trace: dict) -> Counter:
    return Counter(e["kind"] for e in trace["events"])


def test_an_lstm_layer_is_one_op_per_output_and_one_backward_pass():
    trace = trace_of(LSTM)
    ops = [e for e in trace["events"] if e["kind"] == "op" and e["line"] == 6]
    # two layers, three outputs each (output, h_n, c_n), then the stacks of h_n and c_n
    fused = [e for e in ops if e["op"] == "mkldnn_rnn_layer"]
    assert len(fused) == 6
    assert {e["node"]["name"] for e in fused} == {"MkldnnRnnLayerBackward0"}
    assert len({e["node"]["id"] for e in fused}) == 2
    assert not {"sigmoid", "tanh", "addmm", "unsafe_split"} & {e["op"] for e in ops}
    # the module's zero h0 and c0 are the only tensors made on that line: none by the
    # kernel, and no grad-mode switches inside it, in forward or in backward
    made = [e["how"] for e in trace["events"] if e["kind"] == "tensor" and e["line"] in (6, 7)]
    assert made == ["zeros", "zeros"]
    assert not [e for e in trace["events"] if e["kind"] == "grad_mode"]
    k = kinds(trace)
    assert k["backward_begin"] == k["backward_end"] == 1
    # the pass applies the two layer nodes and the sum and stack nodes, nothing of the rerun
    applied = Counter(e["node"] for e in trace["events"] if e["kind"] == "node_apply")
    assert len(applied) == 3 and set(applied.values()) == {1}
    assert trace["events"][-2]["text"].startswith("tensor(")


def test_the_fused_layer_draws_each_input_arrow_once():
    graph = graph_from_trace(trace_of(LSTM))
    layers = [i for i, n in graph.nodes.items() if n.label == "MkldnnRnnLayerBackward0"]
    assert len(layers) == 2
    into = [e for e in graph.edges.values() if e.dst in layers]
    assert into and all(e.count == 1 for e in into)
    # one layer's output goes on into the next
    assert any(e.src in graph.nodes and graph.nodes[e.src].kind == "tensor"
               and e.dst == layers[1] for e in into)


def test_flash_attention_is_one_op_and_its_rerun_is_not_a_pass():
    trace = trace_of(SDPA)
    ops = [e for e in trace["events"] if e["kind"] == "op" and e["line"] == 7]
    assert [e["op"] for e in ops] == ["_scaled_dot_product_flash_attention_for_cpu"]
    assert ops[0]["node"]["name"] == "ScaledDotProductFlashAttentionForCpuBackward0"
    k = kinds(trace)
    assert k["backward_begin"] == 1 and k["accumulate"] == 3
    assert trace["events"][-2]["text"] == (
        "ScaledDotProductFlashAttentionForCpuBackward0 torch.Size([1, 1, 3, 2])\n")
