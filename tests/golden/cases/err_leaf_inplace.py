# source: original
# topic: errors
# compare: exact
# visibility: public
# An in-place op on a leaf that requires grad.
import torch
w = torch.tensor([1.0, 2.0], requires_grad=True)
print(w)
w.add_(1.0)
