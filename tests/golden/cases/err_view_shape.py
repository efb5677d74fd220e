# source: original
# topic: errors
# compare: exact
# visibility: public
# view/reshape to a shape with a different number of elements.
import torch
x = torch.arange(6.)
x.view(4)
