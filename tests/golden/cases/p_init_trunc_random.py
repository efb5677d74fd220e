# source: original
# topic: printing
# compare: numeric
# visibility: public
# Seeded nn.init.trunc_normal_ (PyTorch 2.13's two recipes: redrawing out-of-range normals, or
# accepting uniform proposals when [a, b] holds little mass), nn.init's generator= argument,
# and Tensor.random_ (bounded and full-range), printed as PyTorch prints them.
import torch
import torch.nn as nn

torch.manual_seed(0)
x = torch.empty(4, 5)
print(nn.init.trunc_normal_(x, std=0.02))
print(nn.init.trunc_normal_(x, mean=1.0, std=2.0, a=-1.0, b=1.5))
print(torch.randn(2))
print(nn.init.trunc_normal_(nn.Linear(3, 3).weight, std=0.1))
y = torch.empty(3, 4)
print(nn.init.trunc_normal_(y, mean=0.0, std=1.0, a=1.0, b=2.0))
print(nn.init.trunc_normal_(y), torch.rand(1))
g = torch.Generator().manual_seed(5)
print(nn.init.trunc_normal_(torch.empty(5), std=0.5, a=-0.5, b=0.5, generator=g))
print(nn.init.xavier_uniform_(torch.empty(2, 3), generator=torch.Generator().manual_seed(1)))
print(nn.init.kaiming_normal_(torch.empty(2, 3), generator=torch.Generator().manual_seed(1)))
torch.manual_seed(0)
print(torch.empty(5).random_(0, 10), torch.empty(4).random_(5))
print(torch.empty(3, dtype=torch.long).random_(-5, 5))
print(torch.empty(3).random_(), torch.empty(3, dtype=torch.float64).random_())
print(torch.empty(3, dtype=torch.long).random_(), torch.empty(3, dtype=torch.int32).random_())
print(torch.randn(2))
