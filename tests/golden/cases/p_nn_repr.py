# source: original
# topic: printing
# compare: exact
# visibility: public
# Parameters, modules and state dicts print as PyTorch's.
import torch
import torch.nn as nn

p = nn.Parameter(torch.tensor([1.0, 2.0]))
print(p)
print(repr(p))
print(p * 2)
print(nn.Parameter(torch.zeros(2, 2), requires_grad=False))
lin = nn.Linear(2, 3)
with torch.no_grad():
    lin.weight.copy_(torch.tensor([[0.1, 0.2], [-0.3, 0.4], [0.5, -0.6]]))
    lin.bias.zero_()
print(lin)
print(lin.weight)
print(lin.bias)
print(nn.Linear(4, 1, bias=False))
model = nn.Sequential(nn.Linear(2, 4), nn.ReLU(), nn.Linear(4, 1), nn.Sigmoid())
print(model)
print(nn.Tanh(), nn.ReLU(), nn.MSELoss(), nn.BCEWithLogitsLoss(), nn.CrossEntropyLoss())
print(list(lin.state_dict().keys()))
print(lin.state_dict())
print([name for name, _ in model.named_parameters()])
print([type(m).__name__ for m in model.children()])


class Net(nn.Module):
    def __init__(self):
        super().__init__()
        self.hidden = nn.Linear(3, 2)
        self.act = nn.Tanh()
        self.out = nn.Linear(2, 1)

    def forward(self, x):
        return self.out(self.act(self.hidden(x)))


print(Net())
print(sum(p.numel() for p in Net().parameters()))
