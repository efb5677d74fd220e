# source: original
# topic: errors
# compare: exact
# visibility: public
# Writing into a view of a leaf that requires grad.
import torch
w = torch.tensor([1.0, 2.0], requires_grad=True)
w[0] = 5.0
