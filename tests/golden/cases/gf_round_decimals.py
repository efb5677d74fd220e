# source: original
# topic: round with decimals keeps its node (RoundBackward1) and gives a zero gradient
# compare: exact
# visibility: public
import torch

x = torch.tensor([1.2345, -2.5, 0.05, 123.456, 2.675], requires_grad=True)
r = torch.round(x, decimals=2)
print(r)
print(r.grad_fn)
print(torch.round(x, decimals=0).grad_fn, torch.round(x).grad_fn)
print(x.round(decimals=-1), x.round(decimals=1))
r.sum().backward()
print(x.grad)
d = torch.tensor([0.125, 0.375, 1.005, -0.5], dtype=torch.float64, requires_grad=True)
print(d.round(decimals=2), d.round(decimals=3))
print(torch.tensor([15, 25, 35]).round())
try:
    torch.tensor([15, 25, 35]).round(decimals=-1)
except NotImplementedError as e:
    print("NotImplementedError:", e)
with torch.no_grad():
    print(torch.round(x, decimals=1).requires_grad)
