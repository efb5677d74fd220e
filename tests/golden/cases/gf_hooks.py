# source: original
# topic: grad-fn
# compare: exact
# visibility: public
# Tensor hooks see (and may replace) the gradient flowing into a tensor.
import torch
x = torch.tensor([1.0, 2.0], requires_grad=True)
y = x * 3


def show(g):
    print("grad into y:", g)


def double(g):
    return g * 2


h = y.register_hook(show)
y.register_hook(double)
x.register_hook(lambda g: print("grad into x:", g))
(y * y).sum().backward()
print(x.grad)
h.remove()
x.grad = None
y2 = x * 3
y2.retain_grad()
y2.sum().backward()
print(y2.grad, x.grad)
