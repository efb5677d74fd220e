# source: original
# topic: printing
# compare: exact
# visibility: public
# 0-d tensors print their one value with no brackets, in the same notation rules as vectors.
import torch
print(torch.tensor(7.5))
print(torch.tensor(1024.))
print(torch.tensor(3))
print(torch.tensor(True))
print(torch.tensor(-0.0))
print(torch.tensor(0.0))
print(torch.tensor(1e-5))
print(torch.tensor(123456789.0))
print(torch.tensor(2.5, dtype=torch.float64))
print(torch.tensor(2.5, requires_grad=True))
print(torch.tensor(float("nan")), torch.tensor(float("-inf")))
