# source: original
# topic: warnings
# compare: exact
# visibility: public
# checkpoint and checkpoint_sequential without use_reentrant warn that it should be passed.
import torch
from torch.utils.checkpoint import checkpoint, checkpoint_sequential

x = torch.tensor([0.5, -1.0], requires_grad=True)
print(checkpoint(torch.sigmoid, x))
net = torch.nn.Sequential(torch.nn.Linear(2, 2), torch.nn.ReLU(), torch.nn.Linear(2, 1))
print(checkpoint_sequential(net, 2, x).shape)
