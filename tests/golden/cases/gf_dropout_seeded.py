# source: original
# topic: training
# compare: exact
# visibility: public
# Seeded dropout drops PyTorch's elements: its mask is bernoulli_(1 - p), one 53-bit uniform
# draw per element in order, so the draws after it agree too. p = 1 draws nothing.
# torch.bernoulli and Tensor.bernoulli_ draw the same way (24-bit draws for float32 probabilities).
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)
y = F.dropout(torch.ones(3000), 0.2)
print(y.sum().item(), y[:10], y.grad_fn)
print(torch.randn(2))
drop = nn.Dropout(0.5)
x = torch.ones(2, 5, requires_grad=True)
out = drop(x)
print(out)
out.sum().backward()
print(x.grad)
drop.eval()
print(drop(torch.ones(4)))
print(F.dropout(torch.ones(4), p=1.0), torch.rand(1))
print(F.dropout(torch.ones(4, dtype=torch.float64), p=0.3))
print(F.dropout(torch.ones(3), 0.5, training=False))
print(torch.bernoulli(torch.full((8,), 0.5)))
print(torch.bernoulli(torch.tensor([0.1, 0.9, 0.5, 0.5], dtype=torch.float64)))
print(torch.empty(6).bernoulli_(0.25))
print(torch.zeros(5).bernoulli_())
print(torch.zeros(2, 3).bernoulli_(torch.tensor([0.1, 0.5, 0.9])))
g = torch.Generator().manual_seed(3)
print(torch.bernoulli(torch.full((6,), 0.5), generator=g))
torch.manual_seed(1)
model = nn.Sequential(nn.Linear(4, 8), nn.ReLU(), nn.Dropout(0.3), nn.Linear(8, 1))
print(model(torch.ones(3, 4)))
