# source: original
# topic: nn
# compare: exact
# visibility: public
# type() of layers, losses and optimizers names PyTorch's classes; a learner's own stays its own.
import torch
import torch.nn as nn


class Net(nn.Module):
    def __init__(self):
        super().__init__()
        self.fc = nn.Linear(2, 1)
        self.drop = nn.Dropout(0.1)

    def forward(self, x):
        return self.drop(self.fc(x))


net = Net()
print(type(net).__name__, isinstance(net, nn.Module))
for m in [net.fc, net.drop, nn.Sequential(), nn.ReLU(), nn.Flatten(), nn.MSELoss(),
          nn.CrossEntropyLoss()]:
    print(type(m))
for opt in [torch.optim.SGD(net.parameters(), lr=0.1), torch.optim.Adam(net.parameters())]:
    print(type(opt), type(opt).__name__)
print(nn.Module, torch.optim.Optimizer)
