# source: original
# topic: the torch namespace's in-place functions (torch.exp_, torch.sigmoid_, torch.tanh_ ...):
#   the same grad_fns as the methods, the version bump, the leaf error and a non-tensor input
# compare: exact
# visibility: public
import torch
x = torch.tensor([0.25, 0.5, 2.0], requires_grad=True)
for f in [torch.abs_, torch.cos_, torch.exp_, torch.floor_, torch.log_, torch.neg_,
          torch.reciprocal_, torch.sigmoid_, torch.sin_, torch.sqrt_, torch.square_, torch.tanh_,
          torch.zero_]:
    x.grad = None
    h = x * 1
    y = f(h)
    print(f.__name__, y is h, h._version, y)
    y.sum().backward()
    print("  grad", x.grad)
d = (x * 2).detach()
print(torch.detach_(x * 2), d.requires_grad)
try:
    torch.exp_(x)
except RuntimeError as e:
    print(e)
try:
    torch.sigmoid_(2.0)
except TypeError as e:
    print(e)
