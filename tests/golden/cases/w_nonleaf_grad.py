# source: original
# topic: warnings
# compare: exact
# visibility: public
# Reading .grad of a non-leaf warns (once per line) and gives None; retain_grad() fixes it.
import torch
x = torch.tensor([1.0, 2.0], requires_grad=True)
y = x * 2
y.sum().backward()
print(x.grad)
print(y.grad)
z = x * 3
z.retain_grad()
z.sum().backward()
print(z.grad, z.retains_grad, y.retains_grad)
