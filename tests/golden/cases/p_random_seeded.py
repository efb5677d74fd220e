# source: original
# topic: printing
# compare: numeric
# visibility: public
# Seeded random tensors print in the usual notation (values compared numerically).
import torch
torch.manual_seed(0)
print(torch.randn(3))
print(torch.rand(2, 3))
print(torch.randint(0, 10, (6,)))
print(torch.randn(2, 2, requires_grad=True))
print(torch.randn(4, 12))
torch.manual_seed(0)
print(torch.randn(3))
