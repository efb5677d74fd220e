# source: original
# topic: the reentrant checkpoint warns when none of the tensors passed in requires grad (a
#   module's own parameters do not count), and its output then requires no grad
# compare: exact
# visibility: public
import torch
import torch.nn as nn
from torch.utils.checkpoint import checkpoint

lin = nn.Linear(3, 2)
x = torch.ones(2, 3)
y = checkpoint(lin, x, use_reentrant=True)
print(y.requires_grad, y.grad_fn)
z = checkpoint(lin, x, use_reentrant=False)
print(z.requires_grad, type(z.grad_fn).__name__)
w = checkpoint(torch.mul, x, 2.0, use_reentrant=True)
print(w.requires_grad)
x.requires_grad_()
print(checkpoint(lin, x, use_reentrant=True).grad_fn.name())
