# source: original
# topic: hooks
# compare: exact
# visibility: public
# torch.autograd.graph.register_multi_grad_hook in its two modes, removed, and with a bad mode.
import torch
from torch.autograd.graph import register_multi_grad_hook
a = torch.tensor([1., 2.], requires_grad=True)
b = torch.tensor([3., 4.], requires_grad=True)
c = torch.tensor(5., requires_grad=True)
def show(grads):
    print("all:", grads)
h = register_multi_grad_hook((a, b, c), show)
(a * b).sum().backward()
print("after first")
(a * 2).sum().backward()
(a * b * c).sum().backward()
h.remove()
(a * b).sum().backward()
print("removed")
h2 = register_multi_grad_hook([a, b], lambda g: print("any:", g), mode="any")
(a * b).sum().backward()
(b * 3).sum().backward()
try:
    register_multi_grad_hook([a], print, mode="some")
except ValueError as e:
    print("ValueError", e)
x = torch.tensor(1., requires_grad=True)
y = x * 2
h3 = register_multi_grad_hook((x, y), lambda g: print("mixed:", g))
(y * y).backward()
print(x.grad)
