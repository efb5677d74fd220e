# source: original
# topic: torch.vmap of a full reduction (torch.sum, torch.mean, Tensor.sum) over inputs that
#   require grad: the batch is reduced over every dim but its own (SumBackward1,
#   MeanBackward1), whichever dim is mapped; one-op functions keep their node
# compare: exact
# visibility: public
import torch
from torch.func import vmap

x = torch.tensor([[1.0, -2.0, 3.0], [3.0, -4.0, 0.5]], requires_grad=True)
print(vmap(torch.sum)(x), vmap(torch.mean)(x), vmap(torch.Tensor.sum)(x))
print(vmap(torch.sum)(x.detach()), vmap(torch.sum, in_dims=1)(x))
print(vmap(torch.mean, in_dims=-1)(x))
cube = torch.arange(8.0).reshape(2, 2, 2).requires_grad_(True)
print(vmap(torch.sum)(cube), vmap(torch.mean, in_dims=2)(cube))
print(vmap(torch.relu)(x), vmap(torch.exp)(x))
s = vmap(torch.sum)(x)
s.sum().backward()
print(x.grad)
