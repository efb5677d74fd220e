# source: original
# topic: printing
# compare: exact
# visibility: public
# torch.Size, dtypes and shape queries print as PyTorch's own objects.
import torch
x = torch.zeros(2, 3)
print(x.shape, x.size(), x.size(1), x.dim(), x.numel())
print(torch.tensor(1.0).shape)
print(torch.ones(4).shape, len(torch.ones(4)))
print(x.shape == (2, 3), list(x.shape), tuple(x.shape))
print(x.dtype, torch.tensor([1]).dtype, torch.tensor([True]).dtype)
print(torch.tensor([1.0], dtype=torch.float64).dtype)
print(torch.float32, torch.float64, torch.int64, torch.bool, torch.float, torch.long)
print(x.t().shape, x.reshape(3, 2).shape, x.unsqueeze(0).shape, x.flatten().shape)
print(torch.ones(2, 1, 3).squeeze().shape)
