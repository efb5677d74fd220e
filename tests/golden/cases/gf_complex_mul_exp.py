# source: original
# topic: gradients of complex mul, div, exp and pow, mixing real and complex inputs
# compare: exact
# visibility: public
import torch

z = torch.tensor([1 + 1j, 0.5 - 2j], requires_grad=True)
w = torch.tensor([2 - 1j, -1 + 0.5j], requires_grad=True)
r = torch.tensor([1.5, -0.5], requires_grad=True)
y = (z * w).exp() / (r + 1j)
print(y)
y.abs().sum().backward()
print(z.grad)
print(w.grad)
print(r.grad)
for t in (z, w, r):
    t.grad = None
q = (z ** 2 * r + w.pow(3)).sum()
q.real.backward()
print(z.grad, w.grad, r.grad)
z.grad = None
(z * 2).imag.sum().backward(retain_graph=True)
print(z.grad)
