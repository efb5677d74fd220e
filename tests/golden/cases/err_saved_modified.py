# source: original
# topic: errors
# compare: exact
# visibility: public
# A tensor saved for backward is modified in place before backward runs.
import torch
x = torch.tensor([1.0, 2.0, 3.0], requires_grad=True)
y = x.exp()
z = y.sum()
y.mul_(2)
print(y._version)
z2 = (y * y).sum()
z2.backward()
print(x.grad)
a = torch.tensor([1.0, 2.0], requires_grad=True)
b = a * 1
c = b * b
b.add_(1)
c.sum().backward()
