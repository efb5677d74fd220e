# source: original
# topic: grad-fn
# compare: exact
# visibility: public
# In-place ops on non-leaves keep the op's grad_fn class; index assignment records CopySlices.
import torch
x = torch.tensor([1.0, 2.0, 3.0], requires_grad=True)
y = x * 1
print(type(y.grad_fn).__name__, y._version)
y.add_(1)
print(type(y.grad_fn).__name__, y._version, y)
y.mul_(2)
print(type(y.grad_fn).__name__, y._version, y)
y.sub_(1)
print(type(y.grad_fn).__name__, y)
y.div_(2)
print(type(y.grad_fn).__name__, y)
y.clamp_(0.0, 3.0)
print(type(y.grad_fn).__name__, y)
y[0] = 10.0
print(type(y.grad_fn).__name__, y)
z = torch.zeros(3)
z[1:] = x[:2] * 2
print(type(z.grad_fn).__name__, z, z.requires_grad, z.is_leaf)
print([type(f).__name__ if f is not None else None for f, _ in z.grad_fn.next_functions])
w = x.clone()
print(type(w.grad_fn).__name__, w)
w.zero_()
print(type(w.grad_fn).__name__, w)
w.fill_(2.0)
print(type(w.grad_fn).__name__, w)
w.copy_(torch.tensor([7.0, 8.0, 9.0]))
print(type(w.grad_fn).__name__, w)
