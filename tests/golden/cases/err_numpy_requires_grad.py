# source: original
# topic: errors
# compare: exact
# visibility: public
# numpy() on a tensor that requires grad.
import torch
x = torch.tensor([1.0, 2.0], requires_grad=True)
print(x.detach().numpy())
x.numpy()
