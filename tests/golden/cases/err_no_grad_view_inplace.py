# source: original
# topic: a view taken under no_grad requires grad, has no edge to the graph, and refuses an in-place write once grad mode is back
# compare: exact
# visibility: public
import torch

a = torch.tensor([1.0, 2.0, 3.0], requires_grad=True)
b = a * 2
with torch.no_grad():
    v = b[:2]
print(v.requires_grad, v.grad_fn, v.is_leaf, v._base is b)
try:
    v.mul_(2)
except RuntimeError as e:
    print("RuntimeError", e)
with torch.no_grad():
    w = a.view(3)
print(w.requires_grad, w.is_leaf)
try:
    w.add_(1)
except RuntimeError as e:
    print("RuntimeError", e)
with torch.no_grad():
    u = b.view(3)
    u.mul_(2)
print(b, u.requires_grad)
a2 = torch.tensor([1.0, 2.0, 3.0], requires_grad=True)
b = a2 * 2
with torch.no_grad():
    v = b[:2]
m = v * 3
print(m.requires_grad, m.grad_fn.next_functions, v.grad_fn)
print(v.is_leaf, v.requires_grad)
m.sum().backward()
print(v.grad)
