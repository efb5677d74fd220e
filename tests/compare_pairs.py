"""Pairs of programs for the two-runs comparison tests: an earlier version, an edited one, and
what a learner should see when the two are put side by side.

`lines_a` / `lines_b`: the lines marked as changed in each pane (1-based). `error_a` /
`error_b`: the exception type each run stops with (None when it ends normally). `only`: which
run has steps the other lacks ("a", "b", "both" or None). `same`: the runs compute the same
numbers at every shared step. `loss`: (differing, total) loss points, when the program has a
backward pass from one number.
"""
from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Pair:
    name: str
    a: str
    b: str
    lines_a: tuple[int, ...]
    lines_b: tuple[int, ...]
    error_a: str | None = None
    error_b: str | None = None
    only: str | None = None
    same: bool = False
    loss: tuple[int, int] | None = None


INPLACE = """import torch
x = torch.tensor([0.5, -1.0, 2.0], requires_grad=True)
a = x.sigmoid()
a.mul_(2)
a.sum().backward()
print(x.grad)
"""

OPTIM_LOOP = """import torch
torch.manual_seed(0)
w = torch.tensor([1.0, -2.0], requires_grad=True)
opt = torch.optim.SGD([w], lr=0.1)
for step in range(4):
    opt.zero_grad()
    loss = ((w - 3) ** 2).sum()
    loss.backward()
    opt.step()
print(w)
"""

RETAIN = """import torch
x = torch.tensor([1.0, 2.0], requires_grad=True)
y = (x * x).sum()
y.backward(retain_graph=True)
y.backward()
print(x.grad)
"""

CUBE = """import torch
x = torch.tensor([1.0, 2.0, 3.0], requires_grad=True)
y = x * 3
z = y.sum()
z.backward()
print(x.grad)
"""

MATMUL = """import torch
W = torch.ones(2, 3, requires_grad=True)
x = torch.ones(3)
y = W @ x
y.sum().backward()
print(W.grad)
"""

TRAIN = """import torch
import torch.nn as nn
torch.manual_seed(0)
model = nn.Linear(2, 1)
opt = torch.optim.SGD(model.parameters(), lr=0.1)
x = torch.randn(4, 2)
y = torch.randn(4, 1)
for epoch in range(3):
    opt.zero_grad()
    loss = ((model(x) - y) ** 2).mean()
    loss.backward()
    opt.step()
"""

ACCUMULATE = """import torch
w = torch.tensor([1.0, 2.0], requires_grad=True)
for i in range(3):
    w.grad = None
    loss = (w * w).sum()
    loss.backward()
print(w.grad)
"""

NO_GRAD = """import torch
x = torch.tensor([1.0, 2.0], requires_grad=True)
y = x * 2
z = (y * x).sum()
z.backward()
print(x.grad)
"""

PAIRS = [
    # the three the comparison is for
    Pair("inplace_vs_clone", INPLACE, INPLACE.replace("x.sigmoid()", "x.sigmoid().clone()"),
         (3,), (3,), error_a="RuntimeError", only="both"),
    Pair("sgd_vs_adam", OPTIM_LOOP, OPTIM_LOOP.replace("SGD([w], lr=0.1)", "Adam([w], lr=0.1)"),
         (4,), (4,), loss=(3, 4)),
    Pair("retain_graph_vs_without", RETAIN, RETAIN.replace("y.backward(retain_graph=True)", "y.backward()"),
         (4,), (4,), error_b="RuntimeError", only="both"),
    # edits of one's own
    Pair("changed_lr", OPTIM_LOOP, OPTIM_LOOP.replace("lr=0.1", "lr=0.4"), (4,), (4,), loss=(3, 4)),
    Pair("changed_constant", CUBE, CUBE.replace("x * 3", "x * 4"), (3,), (3,)),
    Pair("added_line", CUBE, CUBE.replace("z = y.sum()", "y = y.exp()\nz = y.sum()"),
         (), (4,), only="b"),
    Pair("removed_line", CUBE.replace("z = y.sum()", "y = y.exp()\nz = y.sum()"), CUBE,
         (4,), (), only="a"),
    Pair("different_shapes", MATMUL, MATMUL.replace("ones(2, 3", "ones(4, 3"), (2,), (2,)),
    Pair("error_vs_fixed", MATMUL.replace("torch.ones(3)", "torch.ones(2)"), MATMUL, (3,), (3,),
         error_a="RuntimeError", only="both"),
    Pair("more_iterations", TRAIN, TRAIN.replace("range(3)", "range(5)"), (8,), (8,),
         only="b", loss=(2, 5)),
    Pair("comment_only", CUBE, CUBE.replace("y = x * 3", "y = x * 3  # three times x"),
         (3,), (3,), same=True),
    Pair("changed_seed", TRAIN, TRAIN.replace("manual_seed(0)", "manual_seed(1)"), (3,), (3,),
         loss=(3, 3)),
    Pair("accumulate_vs_reset", ACCUMULATE, ACCUMULATE.replace("    w.grad = None\n", ""),
         (4,), (), only="a", loss=(0, 3)),
    Pair("momentum_added", OPTIM_LOOP, OPTIM_LOOP.replace("lr=0.1)", "lr=0.1, momentum=0.9)"),
         (4,), (4,), loss=(2, 4)),
    # the detach is a step of its own after; before, backward also runs through y's branch
    Pair("detach_added", NO_GRAD, NO_GRAD.replace("z = (y * x)", "z = (y.detach() * x)"),
         (4,), (4,), only="both"),
]
