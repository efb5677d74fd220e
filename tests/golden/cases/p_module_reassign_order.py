# source: original
# topic: printing
# compare: exact
# visibility: public
# Reassigning a parameter or a submodule keeps its place: named_parameters(), state_dict()
# and print(model) list it where it was registered first (transfer-learning head swaps).
import torch
import torch.nn as nn

m = nn.Linear(2, 2)
m.weight = nn.Parameter(torch.eye(2))
print([name for name, _ in m.named_parameters()], list(m.state_dict()))
net = nn.Sequential()
net.add_module("body", nn.Linear(4, 3))
net.add_module("act", nn.ReLU())
net.add_module("head", nn.Linear(3, 2))
net.body = nn.Linear(4, 3, bias=False)
print(net)
print([name for name, _ in net.named_parameters()])


class Model(nn.Module):
    def __init__(self):
        super().__init__()
        self.features = nn.Linear(8, 4)
        self.classifier = nn.Linear(4, 10)
        self.scale = nn.Parameter(torch.ones(1))
        self.extra = nn.Tanh()


model = Model()
model.features = nn.Sequential(nn.Linear(8, 4), nn.ReLU())
model.scale = nn.Parameter(torch.zeros(1))
print(model)
print(list(model.state_dict()))
