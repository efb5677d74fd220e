# source: original
# topic: printing
# compare: exact
# visibility: public
# float64 tensors carry a dtype suffix; the suffix order is dtype, then autograd.
import torch
print(torch.tensor([1.5], dtype=torch.float64))
print(torch.tensor([[123456.789, 1.0]], dtype=torch.float64))
print(torch.tensor(2.0, dtype=torch.float64, requires_grad=True))
x = torch.tensor([1.0, 2.0], dtype=torch.float64, requires_grad=True)
print(x * 2)
print((x * 2).sum())
print(torch.DoubleTensor([1, 2]))
print(torch.tensor([0.1, 0.2], dtype=torch.float64) + torch.tensor([0.2, 0.1]))
print(torch.tensor([1 / 3], dtype=torch.float64))
print(torch.ones(2, dtype=torch.float64).dtype, torch.ones(2).double().dtype)
print(torch.tensor([1, 2]).float(), torch.tensor([1.7, -1.7]).long())
