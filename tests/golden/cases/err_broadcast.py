# source: original
# topic: errors
# compare: exact
# visibility: public
# Elementwise ops on shapes that do not broadcast.
import torch
a = torch.ones(2, 3)
b = torch.ones(4)
print(a.shape, b.shape)
a + b
