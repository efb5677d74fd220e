# source: original
# topic: nn-functional
# compare: exact
# visibility: public
# F.hardsigmoid, hardswish, mish, selu, celu, threshold and glu (and torch.selu/celu/threshold):
# values, grad_fn names, saved attributes, gradients at the kinks (-3 and 3, the threshold),
# the nodes create_graph records, in-place variants, module reprs and PyTorch's errors.
import torch
import torch.nn as nn
import torch.nn.functional as F

x = torch.tensor([[-4.0, -3.0, -1.5, 0.0], [0.5, 1.0, 3.0, 4.0]], requires_grad=True)
u = torch.arange(1.0, 9.0).view(2, 4)
fns = [("hardsigmoid", F.hardsigmoid), ("hardswish", F.hardswish), ("mish", F.mish),
       ("selu", F.selu), ("torch.selu", torch.selu), ("celu", lambda t: F.celu(t, 0.5)),
       ("torch.celu", torch.celu), ("threshold", lambda t: F.threshold(t, 1.0, -2.0)),
       ("torch.threshold", lambda t: torch.threshold(t, 0.0, 9)),
       ("glu", F.glu), ("glu0", lambda t: F.glu(t, 0))]
for name, f in fns:
    y = f(x)
    print(name, y)
    (g,) = torch.autograd.grad((y * u[:, :y.shape[1]][:y.shape[0]]).sum(), x, create_graph=True)
    print(g, [type(n).__name__ for n, _ in g.grad_fn.next_functions])
y = F.selu(x)
print(y.grad_fn._saved_alpha, y.grad_fn._saved_scale, y.grad_fn._saved_input_scale)
print(F.celu(x, 2.0).grad_fn._saved_alpha, F.threshold(x, 0.5, 1).grad_fn._saved_threshold)
print(F.glu(x, -1).grad_fn._saved_dim)
(g,) = torch.autograd.grad(F.hardsigmoid(x).sum(), x, create_graph=True)
print(g, len(g.grad_fn.next_functions))
try:
    g.sum().backward()
except RuntimeError as e:
    print("RuntimeError", e)
(g,) = torch.autograd.grad(F.mish(x).sum(), x, create_graph=True)
(gg,) = torch.autograd.grad(g.sum(), x)
print(gg)
for name, f in [("hardswish", lambda t: F.hardswish(t, inplace=True)),
                ("hardsigmoid", lambda t: F.hardsigmoid(t, inplace=True)),
                ("mish", lambda t: F.mish(t, True)),
                ("threshold", lambda t: F.threshold(t, 0.5, -1.0, inplace=True)),
                ("threshold_", lambda t: torch.threshold_(t, 0.5, -1.0))]:
    x.grad = None
    y = x * 1
    z = f(y)
    print(name, z is y, z)
    z.sum().backward()
    print(x.grad)
print(F.threshold(torch.tensor([1, 2, 3]), 2, 7))
print(nn.Hardsigmoid(), nn.Hardswish(), nn.Mish(), nn.SELU(), nn.CELU(), nn.CELU(0.5), nn.GLU(),
      nn.GLU(dim=0), nn.Threshold(0.1, 20), nn.Threshold(0.1, 20.0, True), nn.SELU(True),
      nn.Hardswish(True), nn.Mish(inplace=True), nn.CELU(inplace=True))
m = nn.Sequential(nn.Linear(2, 4), nn.GLU(), nn.Mish(), nn.Threshold(0.0, -1.0))
print(m)
bad = [lambda: F.glu(torch.ones(3)), lambda: F.glu(torch.ones(2, 3), dim=1),
       lambda: F.glu(torch.tensor(1.0)), lambda: F.glu(torch.ones(4), dim=2),
       lambda: F.celu(torch.ones(3), alpha=0.0), lambda: F.hardswish(torch.tensor([1, 2])),
       lambda: F.mish(torch.tensor([1, 2])), lambda: F.selu(torch.tensor([1, 2])),
       lambda: F.hardsigmoid(torch.tensor([1, 2])), lambda: torch.celu(torch.tensor([1, 2])),
       lambda: F.glu(torch.tensor([1, 2]))]
for f in bad:
    try:
        f()
    except Exception as e:
        print(type(e).__name__, e)
