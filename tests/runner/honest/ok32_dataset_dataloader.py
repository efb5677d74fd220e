import torch
from torch.utils.data import DataLoader, Dataset, TensorDataset
from torch.autograd.function import once_differentiable


class Pairs(Dataset):
    def __init__(self, n):
        self.x = torch.arange(float(n)).unsqueeze(1)

    def __len__(self):
        return len(self.x)

    def __getitem__(self, i):
        return self.x[i], 2 * self.x[i]


torch.manual_seed(0)
for xb, yb in DataLoader(Pairs(5), batch_size=2, shuffle=True):
    print(xb.tolist(), yb.tolist())
print(len(TensorDataset(torch.ones(3), torch.zeros(3))), callable(once_differentiable))
w = torch.ones(2, requires_grad=True)
(w * 10).sum().backward()
print(torch.nn.utils.clip_grad_norm_([w], 1.0), w.grad)
