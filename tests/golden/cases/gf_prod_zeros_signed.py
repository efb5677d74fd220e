# source: original
# topic: gradients with zeros: prod of inputs holding zeros (first and second order), sort keeping a -0. gradient
# compare: exact
# visibility: public
import torch
x = torch.tensor([2.0, 0.0, 3.0], requires_grad=True)
x.prod().backward()
print(x.grad)
y = torch.tensor([[2.0, 0.0, 3.0], [1.0, 4.0, 0.5], [0.0, 0.0, 2.0]], requires_grad=True)
y.prod(1).sum().backward()
print(y.grad)
y.grad = None
y.prod(0, keepdim=True).sum().backward()
print(y.grad)
z = torch.tensor([2.0, 0.0, 3.0], requires_grad=True)
g, = torch.autograd.grad(z.prod(), z, create_graph=True)
print(g)
g.sum().backward()
print(z.grad)
w = torch.tensor([0.0, 0.0, 3.0], requires_grad=True)
g, = torch.autograd.grad(w.prod(), w, create_graph=True)
print(g)
a = torch.tensor([3.0, -1.0, 2.0], requires_grad=True)
v, i = a.sort()
(v * torch.tensor([-0.0, 1.0, -0.0])).sum().backward()
print(a.grad)
print(torch.tensor(5.0, requires_grad=True).prod())
