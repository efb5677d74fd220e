# source: original
# topic: printing
# compare: exact
# visibility: public
# Summarised matrices and 3-d tensors; the width comes from the shown elements only.
import torch
print(torch.arange(3000).reshape(3, 1000))
print(torch.arange(3000).reshape(1000, 3))
print(torch.zeros(100, 100))
print(torch.arange(10000.).reshape(100, 100))
print(torch.arange(8 * 8 * 20).reshape(8, 8, 20))
x = torch.arange(1100.).reshape(1100, 1)
x[500, 0] = 123456.0
print(x)
print(torch.arange(2 * 7 * 100).reshape(2, 7, 100) * 0.5)
