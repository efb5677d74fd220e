# source: original
# topic: gradient of |z| on complex leaves: z / |z| (PyTorch's conjugate convention)
# compare: exact
# visibility: public
import torch

z = torch.tensor([3 + 4j, -1 + 1j, 2j], requires_grad=True)
y = z.abs()
print(y)
y.sum().backward()
print(z.grad)
w = torch.tensor([[1 - 2j, 0.5 + 0.5j]], requires_grad=True, dtype=torch.complex128)
(w.abs() ** 2).sum().backward()
print(w.grad)
u = torch.tensor([0j, 1 + 1j], requires_grad=True)
u.abs().sum().backward()
print(u.grad)
v = torch.tensor([1 + 1j, -2 + 0.5j], requires_grad=True)
v.angle().sum().backward()
print(v.grad)
