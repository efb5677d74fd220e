# source: original
# topic: errors
# compare: exact
# visibility: public
# A hook that changes the gradient in place: fine when the gradient is a tensor of its own,
# refused when it is the expanded gradient a sum's backward passes (its elements share one
# memory location), as is an in-place op on an expand()ed tensor.
import torch

x = torch.tensor([1.0, 2.0], requires_grad=True)
y = x * 3
y.register_hook(lambda g: g.mul_(2))
(y * y).sum().backward()
print(x.grad)
for make in (lambda t: t.add_(1), lambda t: t.clamp_(0, 1), lambda t: t.mul_(2),
             lambda t: t.copy_(torch.zeros(2, 3))):
    try:
        print(make(torch.ones(3).expand(2, 3)))
    except RuntimeError as e:
        print("RuntimeError", e)
w = torch.tensor([1.0, 2.0], requires_grad=True)
z = w * 3
z.register_hook(lambda g: g.mul_(2))
z.sum().backward()
