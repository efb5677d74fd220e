# source: original
# topic: autograd
# compare: numeric
# visibility: public
# Gradients flowing back through broadcasting are summed down to each input's shape.
import torch
x = torch.tensor([[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]], requires_grad=True)
b = torch.tensor([0.5, -1.0, 2.0], requires_grad=True)
s = torch.tensor(3.0, requires_grad=True)
col = torch.tensor([[2.0], [-1.0]], requires_grad=True)
row = torch.tensor([[1.0, 0.0, -1.0]], requires_grad=True)
y = ((x + b) * s - col / row.exp()) ** 2
y.sum().backward()
print(x.grad)
print(b.grad)
print(s.grad)
print(col.grad)
print(row.grad)
z = (x * 2).sum(dim=0, keepdim=True) * b
z.backward(torch.ones(1, 3))
print(x.grad, b.grad)
