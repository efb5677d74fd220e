# source: original
# topic: torch functions given a number, an array or a list where a tensor goes
# compare: exact
# visibility: public
import math

import numpy as np
import torch

# a learner mixing math and torch: torch.exp wants a tensor, math.exp a number
x = torch.tensor([0.5, 1.0], requires_grad=True)
print(torch.exp(x))
print(math.exp(0.5))
for f in (torch.exp, torch.sigmoid, torch.sqrt, torch.log, torch.tanh, torch.relu,
          torch.sum, torch.mean, torch.square, torch.neg, torch.round, torch.negative,
          torch.absolute, torch.arccos):
    for bad in (0.5, 2, np.float64(0.5), np.ones(2), [1.0, 2.0], None):
        try:
            f(bad)
        except TypeError as e:
            print(e)
# the same functions keep their keywords
print(torch.sum(input=x), torch.round(x, decimals=1))
print(torch.sigmoid(torch.tensor(0.5)))
torch.sigmoid(0.5)
