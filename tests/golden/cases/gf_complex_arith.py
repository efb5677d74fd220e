# source: original
# topic: complex arithmetic with real and complex operands: values, dtypes, grad_fn
# compare: exact
# visibility: public
import torch

a = torch.tensor([1 + 2j, 3 - 1j])
b = torch.tensor([0.5 - 1j, -2 + 0.5j])
r = torch.tensor([2.0, -1.0])
for y in (a + b, a - b, a * b, a / b, a + r, r - a, a * r, r / a, a * 2, 2 - a,
          a / 2, a + 1.5j, 1j * r, -a, a ** 2, a.pow(0.5), a.exp()):
    print(y, y.dtype)
print((torch.tensor([1.0, 2.0], dtype=torch.float64) * 1j).dtype)
print((torch.tensor([1, 2]) + torch.tensor(1j)).dtype)
print((torch.tensor([1.0], dtype=torch.float64) + torch.tensor(1j)).dtype)
print(torch.promote_types(torch.float64, torch.complex64))
print(a.sum(), a.mean(), a.prod(), b.sum(0))
print(a @ b, torch.tensor([[1 + 1j, 2], [0, 1j]]) @ torch.tensor([[1j], [2 - 1j]]))
x = torch.tensor([1 + 1j, 2 - 1j], requires_grad=True)
for y in (x + 1, x * a, x / a, x - r, x.exp(), x ** 2, x.sum(), x.mean(), x.conj(), x.abs(),
          x.angle(), x.real, x.imag, torch.view_as_real(x)):
    print(y.grad_fn.name(), y.dtype)
r2 = torch.tensor([1.0, -2.0], requires_grad=True)
y = 1j - r2
print(y, 2 - 1j * r2, 1j / r2, torch.tensor([1, 2]) - 0.5j)
y.abs().sum().backward()
print(r2.grad)
