# source: original
# topic: errors
# compare: exact
# visibility: public
# Integer tensors cannot require gradients.
import torch
x = torch.tensor([1, 2, 3])
print(x.dtype)
x.requires_grad_()
