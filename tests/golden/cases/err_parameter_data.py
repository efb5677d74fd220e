# source: original
# topic: nn.Parameter wraps a tensor: a list, a number or a numpy array is refused, an integer
#   tensor only without requires_grad
# compare: exact
# visibility: public
import numpy as np
import torch
import torch.nn as nn

for data in [[1.0, 2.0], 3.0, np.ones(2), (1.0,)]:
    try:
        nn.Parameter(data)
    except AttributeError as e:
        print(type(e).__name__, e)
try:
    nn.Parameter(torch.tensor([1, 2]))
except RuntimeError as e:
    print(e)
print(nn.Parameter(torch.tensor([1, 2]), requires_grad=False))
print(nn.Parameter(torch.tensor(np.ones(2))))
print(nn.Parameter())
