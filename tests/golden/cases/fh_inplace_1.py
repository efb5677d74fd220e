# source: original
# topic: errors
# compare: exact
# visibility: public
# Version-counter errors after in-place writes, including index assignment (CopySlices).
import torch
a = torch.tensor([1.0, 2.0, 3.0], requires_grad=True)
b = a.exp()
c = b * 2
b.mul_(2) if False else None
print(a._version, b._version)
d = a * 1
e = d.sin()
d.add_(1)
print(d._version)
try:
    e.sum().backward()
except Exception as ex:
    print(type(ex).__name__, ex)
f = a * 1
g = f ** 2
f[0] = 0
try:
    g.sum().backward()
except Exception as ex:
    print(type(ex).__name__, ex)
h = a.tanh()
h2 = h * 3
h.zero_()
try:
    h2.sum().backward(retain_graph=True)
    print(a.grad)
except Exception as ex:
    print(type(ex).__name__, ex)
