# source: original
# topic: errors
# compare: exact
# visibility: public
# A second backward through a graph whose saved tensors were freed.
import torch
x = torch.tensor([1.0, 2.0], requires_grad=True)
y = (x * x).sum()
y.backward()
print(x.grad)
y.backward()
