# source: original
# topic: errors
# compare: exact
# visibility: public
# Building containers with the wrong things (a list, a class instead of an instance, a tensor),
# indexing a Sequential with a string or a float, and Sequential.insert.
import torch
import torch.nn as nn


class Helper:
    pass


for bad in ([nn.ReLU()], nn.ReLU, 3, "relu", lambda x: x, Helper(), torch.ones(1)):
    try:
        nn.Sequential(nn.Linear(1, 2), bad)
    except TypeError as e:
        print("TypeError", e)
for bad in (nn.ReLU(), 3):
    try:
        nn.ModuleList(bad)
    except TypeError as e:
        print("TypeError", e)
s = nn.Sequential(nn.Linear(1, 2), nn.ReLU())
for key in ("a", 1.5, 2, -3):
    try:
        print(s[key])
    except (TypeError, IndexError) as e:
        print(type(e).__name__, e)
s.insert(1, nn.Tanh())
s.insert(-1, nn.Sigmoid())
print(s.insert(4, nn.Linear(2, 1)))
for index, module in ((9, nn.ReLU()), (0, nn.ReLU)):
    try:
        s.insert(index, module)
    except (AssertionError, IndexError) as e:
        print(type(e).__name__, e)
