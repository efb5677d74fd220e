import torch
import torch.nn as nn
import torch.optim as optim


class Net(nn.Module):
    def __init__(self, n_in, n_out):
        super().__init__()
        self.fc = nn.Linear(n_in, n_out)

    def forward(self, x):
        return torch.relu(self.fc(x))


class Deeper(Net):
    def __init__(self):
        super(Deeper, self).__init__(2, 2)
        self.scale = 2.0

    def forward(self, x):
        return super().forward(x) * self.scale


torch.manual_seed(0)
model = Deeper()
opt = optim.SGD(model.parameters(), lr=0.1)
x = torch.ones(4, 2)
for step in range(3):
    opt.zero_grad()
    loss = model(x).sum()
    loss.backward()
    opt.step()
print(len(list(model.parameters())), isinstance(model, nn.Module), model.scale)
print(type(model).__name__, type(model.fc).__name__)
