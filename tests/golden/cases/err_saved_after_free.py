# source: original
# topic: errors
# compare: exact
# visibility: public
# Reading a saved tensor after backward freed it.
import torch
x = torch.tensor([1.0, 2.0], requires_grad=True)
y = x.exp()
y.sum().backward()
print(x.grad)
print(y.grad_fn._saved_result)
