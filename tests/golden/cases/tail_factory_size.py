# source: original
# topic: factories
# compare: exact
# visibility: public
# size= as a keyword on the factories, and torch.normal with a size and requires_grad (d2l).
import torch

torch.manual_seed(0)
a = torch.randn(size=(), requires_grad=True)
print(a)
print(torch.rand(size=(2, 3)))
print(torch.zeros(size=(2,)), torch.ones(size=[1, 2], dtype=torch.float64))
print(torch.empty(size=(0, 3)).shape)
w = torch.normal(0, 0.01, size=(2, 1), requires_grad=True)
print(w)
print(w.is_leaf, w.grad_fn)
print(torch.normal(2.0, 3.0, size=(3,), dtype=torch.float64))
print(torch.randn(size=(2, 2), dtype=torch.float64))
