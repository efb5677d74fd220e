# source: original
# topic: errors
# compare: exact
# visibility: public
# Matrix product of shapes that do not chain.
import torch
a = torch.ones(2, 3, requires_grad=True)
b = torch.ones(2, 3)
a @ b
