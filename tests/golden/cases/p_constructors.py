# source: original
# topic: printing
# compare: exact
# visibility: public
# What the constructors make, printed.
import torch
print(torch.arange(5), torch.arange(1, 4), torch.arange(0, 1, 0.25))
print(torch.arange(5.))
print(torch.linspace(0, 1, 5), torch.linspace(-1, 1, 3))
print(torch.eye(2), torch.full((2, 2), 7.0), torch.full((2,), 3))
print(torch.zeros(2, 3), torch.ones(1, 2))
print(torch.zeros_like(torch.ones(2, 2)), torch.ones_like(torch.tensor([1, 2])))
print(torch.full_like(torch.ones(3), 0.5))
print(torch.tensor([[1, 2], [3, 4]]).float())
print(torch.Tensor([1, 2]), torch.FloatTensor([[1.5]]), torch.Tensor(2, 3).shape)
print(torch.tensor(5).item(), torch.tensor([1.5, 2.5]).tolist(), torch.tensor(2.5).item())
import numpy as np
print(torch.from_numpy(np.array([1.0, 2.0])), torch.from_numpy(np.array([1, 2])))
