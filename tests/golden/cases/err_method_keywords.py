# source: original
# topic: a misspelt keyword to a Tensor method or torch function
# compare: exact
# visibility: public
# PyTorch's C++ methods with one signature name themselves "reshape()"; those written in
# Python (backward, norm, register_hook) "Tensor.backward()".
import torch

x = torch.ones(2, 3, requires_grad=True)
tries = [
    lambda: x.reshape(3, 2, foo=1), lambda: x.add(x, foo=1), lambda: x.mul(x, alpha=2),
    lambda: x.size(foo=1), lambda: x.numpy(foo=1), lambda: x.requires_grad_(flag=True),
    lambda: x.sum(dim=0, keepdim=True, foo=1), lambda: torch.exp(x, foo=1),
    lambda: x.norm(foo=1), lambda: x.register_hook(lambda g: g, foo=1),
    lambda: x.sum().backward(retain=True), lambda: torch.add(x, x, foo=1),
]
for f in tries:
    try:
        f()
    except TypeError as e:
        print(e)
y = (x * 2).sum()
y.backward(retain_grap=True)
