# source: original
# topic: a numpy array, a list or a number passed to an nn.Linear model
# compare: exact
# visibility: public
import torch
import torch.nn as nn
import numpy as np
torch.manual_seed(0)
model = nn.Sequential(nn.Linear(3, 2), nn.ReLU())
for x in (np.ones((4, 3), dtype=np.float32), [[1.0, 2.0, 3.0]], 2.0):
    try:
        model(x)
    except TypeError as e:
        print(e)
print(model(torch.from_numpy(np.ones((1, 3), dtype=np.float32))))
nn.Linear(3, 1)(np.ones(3))
