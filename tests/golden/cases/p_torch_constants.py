# source: original
# topic: printing
# compare: exact
# visibility: public
# torch.pi, torch.e, torch.inf, torch.nan and torch.newaxis in formulas (a Gaussian density,
# sin over one period), as plain Python numbers.
import torch

print(torch.pi, torch.e, torch.inf, torch.nan, torch.newaxis, type(torch.pi))
x = torch.linspace(0, 2 * torch.pi, 5, requires_grad=True)
y = torch.sin(x)
y.sum().backward()
print(y)
print(x.grad)
z = torch.tensor([0.5, 1.0, 2.0], requires_grad=True)
p = torch.exp(-z ** 2 / 2) / (2 * torch.pi) ** 0.5
p.sum().backward()
print(p, z.grad)
print(torch.tensor([torch.inf, -torch.inf, torch.nan]), torch.full((2,), torch.e))
print(torch.arange(3.0)[:, torch.newaxis].shape)
