# source: original
# topic: complex tensors: column widths, wrapping and summarising
# compare: exact
# visibility: public
import torch

re = torch.arange(12, dtype=torch.float32) * 1.25 - 4
im = torch.arange(12, dtype=torch.float32).flip(0) * 0.5
print(torch.complex(re, im))
print(torch.complex(re, im).reshape(3, 4))
print(torch.complex(re.double(), -im.double()).reshape(2, 6))
big = torch.complex(torch.arange(2000.0), torch.ones(2000))
print(big)
print(torch.complex(torch.tensor([1e10, 1.0]), torch.tensor([0.5, 2.0])))
print(torch.tensor([[]], dtype=torch.complex64), torch.tensor([], dtype=torch.complex128))
