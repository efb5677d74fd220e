# source: original
# topic: printing
# compare: exact
# visibility: public
# nn.Sequential built from an OrderedDict (the sandbox lets programs import collections'
# plain containers): named children print by name and name the state_dict keys.
from collections import OrderedDict

import torch
import torch.nn as nn

model = nn.Sequential(OrderedDict([
    ("fc1", nn.Linear(3, 4)),
    ("relu", nn.ReLU()),
    ("fc2", nn.Linear(4, 1)),
]))
print(model)
print(model.fc1, model[2])
print(list(model.state_dict().keys()))
model.add_module("sig", nn.Sigmoid())
print(model)
sd = model.state_dict()
print(type(sd).__name__, isinstance(sd, OrderedDict), len(sd))
