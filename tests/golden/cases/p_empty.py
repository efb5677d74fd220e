# source: original
# topic: printing
# compare: exact
# visibility: public
# Empty tensors: "[]", plus the size unless it is (0,), plus a dtype unless it is the default.
import torch
print(torch.tensor([]))
print(torch.zeros(0))
print(torch.zeros(2, 0))
print(torch.zeros(0, 3))
print(torch.zeros(0, dtype=torch.int64))
print(torch.zeros(1, 0, 2, dtype=torch.float64))
print(torch.tensor([], dtype=torch.bool))
print(torch.tensor([], requires_grad=True))
print(torch.arange(0))
print(torch.ones(3)[3:])
