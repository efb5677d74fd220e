# Sums and means along a dimension printed to the last bit: PyTorch adds a row with four
# interleaved accumulators (and 8-lane vectors), and a column with the same scheme across rows,
# so x.sum(1) of a 4x5 tensor is ((x0 + x4) + x1 + x2) + x3, not numpy's order.
import torch

x = (torch.arange(-17.0, 18.0) / 7.3).reshape(5, 7).requires_grad_()
print(x.sum(1).tolist())
print(x.sum(0).tolist())
print(x.mean(1).tolist())
print(x.mean(0, keepdim=True).tolist())
w = (torch.arange(90.0) / 3.7).reshape(9, 10)
print(w.sum(0).tolist())
print(w.sum(-1).tolist())
print((torch.arange(60.0) / 1.3).reshape(3, 4, 5).sum(1).tolist())

# a broadcast input's gradient is such a sum: b was added to every row
b = torch.zeros(7, requires_grad=True)
(x + b).backward(x.detach() / 3.1)
print(b.grad.tolist())

# reducing the only non-1 dim keeps the other (size-1) dims
print(x[:1].sum(1).tolist(), x[:1].mean(1).shape, x[:1].sum(-1, keepdim=True).shape)
