# source: original
# topic: complex tensors: creation, dtypes and how they print
# compare: exact
# visibility: public
import torch

z = torch.tensor([1 + 2j, -3.5 + 0.25j])
print(z)
print(z.dtype, z.is_complex(), z.dtype.is_complex, z.dtype.is_floating_point)
print(torch.tensor(1 + 2j))
print(torch.tensor([1 + 2j], dtype=torch.complex128))
print(torch.tensor([[1.5, 2], [3, 4]], dtype=torch.cfloat))
print(torch.tensor([1, 2], dtype=torch.cdouble))
print(torch.complex(torch.tensor([1.0, 2.0]), torch.tensor([3.0, -4.0])))
print(torch.tensor([1e-5 + 1e5j, 2 + 3j]))
print(torch.tensor([0.1234567 + 1j, 2 - 3j]))
print(torch.tensor([1 + 0j, 2 - 0j]))
print(torch.tensor([float("nan") + 1j, float("inf") - 2j]))
print(torch.zeros(2, dtype=torch.complex64), torch.ones(2, 2, dtype=torch.cdouble))
print(z.tolist(), z[0].item(), z[1])
print(torch.complex64, torch.complex128, torch.cfloat is torch.complex64)
print(z.real, z.imag)
print(z.shape, z.element_size(), torch.tensor([1j], dtype=torch.complex128).element_size())
