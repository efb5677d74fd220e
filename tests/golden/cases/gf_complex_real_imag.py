# source: original
# topic: gradients through .real, .imag, conj() and torch.complex
# compare: exact
# visibility: public
import torch

z = torch.tensor([1 + 2j, -3 + 0.5j], requires_grad=True)
loss = (z.real ** 2 + 3 * z.imag).sum()
print(loss)
loss.backward()
print(z.grad)
z.grad = None
(z.conj() * z).real.sum().backward()
print(z.grad)
a = torch.tensor([1.0, 2.0], requires_grad=True)
b = torch.tensor([-1.0, 0.5], requires_grad=True)
c = torch.complex(a, b)
print(c)
(c * c).abs().sum().backward()
print(a.grad, b.grad)
print(z.real.is_leaf, z.real.requires_grad, z.real._base is z)
