# source: original
# topic: out
# compare: exact
# visibility: public
# out= on add, mul, sub, div and the factories; PyTorch refuses it when autograd is involved.
import torch

c = torch.zeros(3)
r = torch.add(c, 1, out=c)
print(r is c, c, c._version)
d = torch.empty(3)
torch.mul(torch.tensor([1., 2, 3]), 2, out=d)
print(d)
torch.sub(d, torch.tensor([1., 1, 1]), alpha=2, out=d)
print(d)
q = torch.empty(2)
print(torch.div(torch.tensor([1., 3.]), 2, out=q), q)
e = torch.empty(2, 2)
torch.ones(2, 2, out=e)
print(e)
torch.zeros(size=(2, 2), out=e)
print(e)
f = torch.empty(0)
torch.randn(3, out=f)
print(f.shape)
g = torch.zeros(3, requires_grad=True)
try:
    torch.add(g, 1, out=g)
except RuntimeError as ex:
    print("RuntimeError", ex)
h = torch.empty(3)
try:
    torch.mul(g, 2, out=h)
except RuntimeError as ex:
    print("RuntimeError", ex)
with torch.no_grad():
    torch.mul(g, 2, out=h)
print(h, h.requires_grad)
torch.add(g, 1, out=g)
