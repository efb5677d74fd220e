# source: original
# topic: nn-functional
# compare: exact
# visibility: public
# In-place ELU, SELU and CELU (F.elu/selu/celu with inplace=True, torch.selu_/celu_, F.elu_,
# nn.SELU/CELU/ELU(inplace=True)) and Tensor.cumprod_: the tensor written is the one returned,
# the node is EluBackward1 / CeluBackward1 (which save the output, not the input), gradients,
# second derivatives through the saved output, and PyTorch's refusals.
import torch
import torch.nn as nn
import torch.nn.functional as F

x = torch.tensor([[-2.0, -0.5, 0.0], [0.25, 1.0, 3.0]], requires_grad=True)
u = torch.tensor([[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]])
cases = [("F.elu", lambda t: F.elu(t, 0.5, inplace=True)), ("F.elu_", F.elu_),
         ("F.selu", lambda t: F.selu(t, inplace=True)), ("torch.selu_", torch.selu_),
         ("F.selu_", F.selu_), ("F.celu", lambda t: F.celu(t, 2.0, inplace=True)),
         ("torch.celu_", lambda t: torch.celu_(t, alpha=0.5)), ("F.celu_", F.celu_),
         ("nn.SELU", nn.SELU(inplace=True)), ("nn.CELU", nn.CELU(0.5, inplace=True)),
         ("nn.ELU", nn.ELU(inplace=True)), ("cumprod_", lambda t: t.cumprod_(1)),
         ("cumprod_0", lambda t: t.cumprod_(dim=0))]
for name, f in cases:
    x.grad = None
    y = x * 1
    z = f(y)
    print(name, z is y, y._version, z)
    fn = z.grad_fn
    print(type(fn).__name__, hasattr(fn, "_saved_self"), hasattr(fn, "_saved_result"),
          type(fn.next_functions[0][0]).__name__)
    (g,) = torch.autograd.grad((z * u).sum(), x, create_graph=True)
    print(g)
    (gg,) = torch.autograd.grad(g.sum(), x, allow_unused=True)
    print(gg)
y = F.selu(x * 1, inplace=True)
print(y.grad_fn._saved_alpha, y.grad_fn._saved_scale, y.grad_fn._saved_input_scale)
print(y.grad_fn._saved_result)
y = F.celu(x * 1, 0.25, inplace=True)
print(y.grad_fn._saved_alpha, y.grad_fn._saved_result)
print(x.detach().clone().cumprod_(1), torch.tensor([[1, 2, 3], [4, 5, 6]]).cumprod_(0))
with torch.no_grad():
    w = x * 1
    print(F.selu(w, inplace=True), w.requires_grad, w.grad_fn)
print(nn.SELU(inplace=True), nn.CELU(0.5, inplace=True), nn.ELU(inplace=True))
bad = [lambda: torch.selu_(x), lambda: F.celu(x, inplace=True), lambda: x.cumprod_(0),
       lambda: torch.selu_(torch.tensor([1, 2])), lambda: F.elu_(torch.tensor([1, 2])),
       lambda: torch.celu_(torch.ones(2), 0.0), lambda: torch.ones(3).cumprod_(1),
       lambda: torch.ones(3).cumprod_(0, dtype=torch.float64)]
for f in bad:
    try:
        f()
    except Exception as e:
        print(type(e).__name__, e)
y = x * 1
z = y.sin()
F.selu(y, inplace=True)
try:
    z.sum().backward()
    print(x.grad)
except RuntimeError as e:
    print("RuntimeError", e)
