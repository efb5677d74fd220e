# source: original
# topic: printing
# compare: exact
# visibility: public
# Floats whose finite values are all whole numbers print as integers with a trailing dot.
import torch
print(torch.tensor([1024., 2.]))
print(torch.tensor([1., -1.]))
print(torch.tensor([100000.]))
print(torch.tensor([0., 10., 200.]))
print(torch.tensor([-3., 0., 3.]))
print(torch.tensor([1e7, 1.]))
print(torch.tensor([65536., 1.]))
print(torch.tensor([[1., 20.], [300., 4000.]]))
print(torch.ones(3), torch.zeros(2))
