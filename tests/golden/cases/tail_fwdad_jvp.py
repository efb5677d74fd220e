# source: original
# topic: a Jacobian-vector product by forward_ad equals torch.func.jvp and
#   torch.autograd.functional.jvp; a Jacobian column by column with one-hot tangents
# compare: exact
# visibility: public
import torch
import torch.autograd.forward_ad as fwAD
from torch.func import jvp


def f(x):
    return (x.sin() * x).sum(0) + x.exp().mean()


x = torch.tensor([[0.5, -1.0], [2.0, 0.25]])
v = torch.tensor([[1.0, 0.0], [0.5, -1.0]])
with fwAD.dual_level():
    out, tangent = fwAD.unpack_dual(f(fwAD.make_dual(x, v)))
print(out, tangent)
print(jvp(f, (x,), (v,)))
print(torch.autograd.functional.jvp(f, x, v))
g = lambda t: torch.tanh(t @ torch.tensor([[1.0, 2.0], [3.0, -1.0]]))
p = torch.tensor([0.3, -0.2])
columns = []
with fwAD.dual_level():
    for i in range(2):
        columns.append(fwAD.unpack_dual(g(fwAD.make_dual(p, torch.eye(2)[i]))).tangent)
print(torch.stack(columns, dim=1))
print(torch.func.jacfwd(g)(p))
