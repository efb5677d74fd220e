# source: original
# topic: complex tensors: seeded random draws, torch.* spellings, norm and its gradient
# compare: exact
# visibility: public
import torch

torch.manual_seed(0)
print(torch.randn(3, dtype=torch.cfloat))
print(torch.rand(2, dtype=torch.complex64))
print(torch.randn(2, 2, dtype=torch.complex128))
z = torch.tensor([3 + 4j, 1 - 1j], requires_grad=True)
print(torch.abs(z), torch.real(z), torch.imag(z), torch.conj(z), torch.angle(z))
print(torch.is_complex(z), torch.is_complex(z.abs()), complex(z[0]), z.detach().numpy())
n = z.norm()
print(n)
n.backward()
print(z.grad)
print(torch.cat([z, z.conj()]), torch.stack([z, z]).sum(0))
