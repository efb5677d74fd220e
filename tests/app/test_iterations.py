"""A run cut into iterations and its boxes into module groups (app/services/iterations.py,
app/services/groups.py), from traces recorded by the real sandbox."""
from __future__ import annotations

import json

import pytest

from gradstep.app.services.layout import layout_trace
from gradstep.runner import run_program

MLP = """import torch
import torch.nn as nn
torch.manual_seed(0)
model = nn.Sequential(nn.Linear(4, 8), nn.ReLU(), nn.Linear(8, 1))
x = torch.randn(16, 4)
y = torch.randn(16, 1)
opt = torch.optim.SGD(model.parameters(), lr=0.1)
for epoch in range(EPOCHS):
    opt.zero_grad()
    loss = ((model(x) - y) ** 2).mean()
    loss.backward()
    opt.step()
"""

SECOND_DERIVATIVE = """import torch
x = torch.tensor(2.0, requires_grad=True)
y = x ** 3
(g,) = torch.autograd.grad(y, x, create_graph=True)
g.backward()
print(x.grad)
"""


def trace_of(source: str) -> dict:
    result = run_program(source)
    assert result.error is None, result.error
    return result.trace


@pytest.fixture(scope="module")
def mlp_layouts():
    return {n: layout_trace(trace_of(MLP.replace("EPOCHS", str(n)))) for n in (5, 50)}


def test_the_picture_does_not_grow_with_the_epochs(mlp_layouts):
    small, big = mlp_layouts[5], mlp_layouts[50]
    sizes = [len(p["nodes"]) for layout in (small, big) for p in (layout, *layout["views"])]
    assert max(sizes) == min(sizes)             # every picture is one iteration
    # as many pictures at 50 epochs as at 5: the iterations shown (the first ones, the
    # summarised middle, the last ones), each named as the program names it (loss₂, loss₅₀),
    # so a picture is reused only where the names agree too
    assert len(big["views"]) == len(small["views"]) and len(big["iterations"]) < 10
    for it in big["iterations"]:
        if it.get("alias"):     # its ids stand in for the boxes of the picture it reuses
            picture = big if it["view"] == 0 else big["views"][it["view"] - 1]
            drawn = set(picture["nodes"])
            assert set(it["alias"]) <= drawn and not set(it["alias"].values()) & drawn


def test_parameters_are_in_every_picture(mlp_layouts):
    layout = mlp_layouts[50]
    params = [i for i, n in layout["nodes"].items() if "data" in n.get("rows", [])
              and "grad" in n["rows"]]
    assert len(params) == 4     # two weights, two biases
    for picture in (layout, *layout["views"]):
        assert set(params) <= set(picture["nodes"])


def test_summarised_iterations_are_marked_and_steps_are_ordered(mlp_layouts):
    layout = mlp_layouts[50]
    summarised = [it for it in layout["iterations"] if it["summarised"]]
    assert summarised and summarised[0]["passes"][1] > summarised[0]["passes"][0]
    seqs = [s for s, _ in layout["steps"]]
    assert seqs == sorted(seqs) and seqs[0] == 0
    assert [g for _, g in layout["steps"]] == list(range(len(layout["iterations"])))


def test_modules_are_nested_labelled_groups(mlp_layouts):
    groups = mlp_layouts[50]["groups"]
    by_path = {g["path"]: g for g in groups.values()}
    assert by_path["model[0]"]["label"] == "model[0] · Linear(4 → 8)"
    assert by_path["model[1]"]["label"] == "model[1] · ReLU"
    assert by_path["model"]["label"] == "model · Sequential"
    assert by_path["model[2]"]["parent"] == next(k for k, g in groups.items()
                                                 if g["path"] == "model")
    assert set(by_path["model[0]"]["members"]) < set(by_path["model"]["members"])
    assert not by_path["model"]["user"]
    svg = mlp_layouts[50]["svg"]
    assert all(f'id="{gid}"' in svg for gid in groups)


def test_a_graph_differentiated_again_stays_one_picture():
    layout = layout_trace(trace_of(SECOND_DERIVATIVE))
    assert layout["views"] == [] and len(layout["iterations"]) == 1


def test_a_module_the_learner_wrote_is_marked_as_theirs():
    source = ("import torch\nimport torch.nn as nn\nclass Net(nn.Module):\n"
              "    def __init__(self):\n        super().__init__()\n"
              "        self.fc = nn.Linear(2, 1)\n"
              "    def forward(self, x):\n        return self.fc(x).relu()\n"
              "net = Net()\nnet(torch.ones(3, 2)).sum().backward()\n")
    trace = trace_of(source)
    scopes = {s["path"]: s for s in trace["scopes"]}
    assert scopes["net"]["user"] and not scopes["net.fc"]["user"]
    assert scopes["net.fc"]["parent"] == "net"
    groups = layout_trace(trace)["groups"]
    labels = {g["label"] for g in groups.values()}
    assert {"net · Net", "net.fc · Linear(2 → 1)"} <= labels
    json.dumps(groups)


def test_a_learners_autograd_function_is_a_group():
    source = ("import torch\nclass MyExp(torch.autograd.Function):\n"
              "    @staticmethod\n    def forward(ctx, x):\n        y = x.exp()\n"
              "        ctx.save_for_backward(y)\n        return y\n"
              "    @staticmethod\n    def backward(ctx, g):\n        (y,) = ctx.saved_tensors\n"
              "        return g * y\n"
              "x = torch.tensor([0.0, 1.0], requires_grad=True)\n"
              "MyExp.apply(x * 2).sum().backward()\n")
    trace = trace_of(source)
    assert [(s["path"], s["user"]) for s in trace["scopes"]] == [("MyExp", True)]
    groups = layout_trace(trace)["groups"]
    (group,) = groups.values()
    assert group["label"] == "MyExp"
    names = {e["node"]["name"] for e in trace["events"] if e["kind"] == "op" and e["node"]}
    node = next(e["node"]["id"] for e in trace["events"]
                if e["kind"] == "op" and e["node"] and e["node"]["name"] == "MyExpBackward")
    assert "MyExpBackward" in names and node in group["members"]
