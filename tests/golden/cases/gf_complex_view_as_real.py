# source: original
# topic: view_as_real, view_as_complex and polar: values, views and gradients
# compare: exact
# visibility: public
import torch

z = torch.tensor([1 + 2j, -3 + 0.5j], requires_grad=True)
r = torch.view_as_real(z)
print(r)
(r * torch.tensor([[1.0, 2.0], [3.0, 4.0]])).sum().backward()
print(z.grad)
p = torch.tensor([[1.0, -1.0], [0.5, 2.0]], requires_grad=True)
c = torch.view_as_complex(p)
print(c)
(c * c).abs().sum().backward()
print(p.grad)
m = torch.tensor([1.0, 2.0], requires_grad=True)
th = torch.tensor([0.0, 1.5707963267948966], requires_grad=True)
q = torch.polar(m, th)
print(q)
(q * torch.tensor([1 - 1j, 2j])).real.sum().backward()
print(m.grad, th.grad)
x = torch.tensor([1 + 1j, 2 + 2j])
v = torch.view_as_real(x)
v[0, 1] = 5.0
print(x)
