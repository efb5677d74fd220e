# source: original
# topic: grad-fn
# compare: exact
# visibility: public
# autograd.grad with one tensor listed more than once: each position gets its gradient.
import torch
x = torch.tensor([1.0, 2.0], requires_grad=True)
y = (x * x).sum()
g = torch.autograd.grad(y, [x, x])
print(g)
z = (x ** 3).sum()
print(torch.autograd.grad(z, (x, x), retain_graph=True))
w = torch.tensor(3.0, requires_grad=True)
out = w * x
print(torch.autograd.grad(out, [x, w, x], torch.ones(2)))
