# source: original
# topic: printing
# compare: exact
# visibility: public
# Integer tensors: right-aligned, no dtype suffix for int64.
import torch
print(torch.tensor([1, -20, 300]))
print(torch.tensor([0]))
print(torch.tensor([[1, 2], [30, 4]]))
print(torch.tensor([-9223372036854775807, 9223372036854775807]))
print(torch.arange(12).reshape(3, 4))
print(torch.arange(30))
print(torch.tensor([5, 6]) * 2, torch.tensor([7]) // 2)
print(torch.tensor([1, 2], dtype=torch.int64))
print(torch.LongTensor([3, 4]))
print(torch.tensor([1, 2]) + 0.5)
print(torch.tensor([1, 2]) / 2)
