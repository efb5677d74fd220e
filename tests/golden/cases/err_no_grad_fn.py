# source: original
# topic: errors
# compare: exact
# visibility: public
# backward() on a tensor that no graph leads to.
import torch
x = torch.tensor([1.0, 2.0])
loss = (x * 2).sum()
print(loss.requires_grad, loss.grad_fn)
loss.backward()
