# source: original
# topic: a module's full backward hook (and backward pre-hook) returning a gradient of the
#   wrong size: PyTorch's error names the closure it registers on the node, 'hook'
# compare: exact
# visibility: public
import torch
import torch.nn as nn

lin = nn.Linear(3, 2)
x = torch.ones(4, 3, requires_grad=True)
lin.register_full_backward_pre_hook(lambda m, go: (torch.zeros(2, 2),))
try:
    lin(x).sum().backward()
except RuntimeError as e:
    print(e)

lin = nn.Linear(3, 2)
lin.register_full_backward_hook(lambda m, gi, go: (torch.zeros(5, 5),))
lin(x).sum().backward()
