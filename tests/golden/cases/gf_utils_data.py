# source: original
# topic: training
# compare: exact
# visibility: public
# torch.utils.data: TensorDataset, a Dataset subclass, random_split and DataLoader batches
# (default_collate stacks tensors, makes numbers tensors, turns tuples into lists). Seeded
# shuffles give PyTorch's batches, and the draws they take move the global generator as
# PyTorch's do, so later random values agree as well.
import torch
from torch.utils.data import DataLoader, Dataset, TensorDataset, random_split

torch.manual_seed(0)
X = torch.arange(20.0).reshape(10, 2)
y = torch.arange(10)
ds = TensorDataset(X, y)
print(len(ds), ds[3])
print(ds[1:3])
loader = DataLoader(ds, batch_size=4, shuffle=True)
print(len(loader), loader.batch_size, loader.dataset is ds)
for epoch in range(2):
    print(epoch, [yb.tolist() for _, yb in loader])
print(torch.rand(3))
xb, yb = next(iter(DataLoader(ds, batch_size=3)))
print(xb, yb)
print(type(next(iter(loader))).__name__)
train, test = random_split(ds, [8, 2])
print(len(train), train.indices, test.indices, test[0])
a, b = random_split(ds, [0.7, 0.3])
print(len(a), len(b), sorted(a.indices + b.indices) == list(range(10)))
g = torch.Generator().manual_seed(1)
print([yb.tolist() for _, yb in DataLoader(ds, batch_size=5, shuffle=True, generator=g)])


class Squares(Dataset):
    def __init__(self, n):
        self.n = n

    def __len__(self):
        return self.n

    def __getitem__(self, i):
        return i, i * i, float(i)


for batch in DataLoader(Squares(5), batch_size=2, drop_last=True):
    print(batch)
print(len(DataLoader(Squares(5), batch_size=2)), len(DataLoader(Squares(5), batch_size=2,
                                                                drop_last=True)))
print(list(DataLoader([1.0, 2.0, 3.0], batch_size=2)))
print(list(DataLoader([{"x": torch.ones(2), "label": 1}] * 2, batch_size=2)))
print(list(DataLoader(Squares(3), batch_size=2, collate_fn=lambda b: b)))
print(list(DataLoader(ds, batch_size=None))[0])
try:
    TensorDataset(torch.ones(3), torch.ones(4))
except AssertionError as e:
    print("AssertionError", e)
try:
    random_split(ds, [3, 3])
except ValueError as e:
    print(e)
