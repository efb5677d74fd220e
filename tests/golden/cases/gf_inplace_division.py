# source: original
# topic: grad_fn
# compare: exact
# visibility: public
# `//=` and `%=` write in place (same object, version bumped), div_ with rounding_mode,
# and squeeze with a tuple of dims (SqueezeBackward2).
import torch

a = torch.tensor([7., 8., -3.])
alias = a
before = a._version
a //= 2
print(a is alias, a, alias, a._version - before)
a %= 3
print(a is alias, a, a._version - before)
n = torch.tensor([7, 9, -9])
same = n
n //= torch.tensor([2, 4, 4])
print(n is same, n, n._version)
n %= 4
print(n is same, n, n._version)
print(n.floor_divide_(2), n.remainder_(2), n.fmod_(3), n._version)

w = torch.tensor([3., 4.5], requires_grad=True)
h = w * 1
h //= 2
print(h, h.grad_fn.name(), len(h.grad_fn.next_functions))
h = w * 1
h %= 2
print(h, h.grad_fn)
h.sum().backward()
print(w.grad)

v = torch.tensor([7., -7., 5.5])
print(v.clone().div_(2, rounding_mode="floor"))
print(v.clone().div_(torch.tensor(2.), rounding_mode="trunc"))
print(v.clone().div_(2, rounding_mode=None))
print(torch.tensor([7, -7, 5]).div_(2, rounding_mode="floor"))
w.grad = None
h = w * 1
h.div_(2, rounding_mode="floor")
print(h, h.grad_fn, h.grad_fn._saved_rounding_mode)
h.sum().backward()
print(w.grad)
h = w * 1
h.div_(torch.tensor([2., 3.]), rounding_mode=None)
print(h.grad_fn)

x = torch.zeros(2, 1, 3, 1, requires_grad=True)
y = x.squeeze((1, 3))
print(y.shape, y.grad_fn, y.grad_fn._saved_dim, y.grad_fn._saved_self_sym_sizes)
print(torch.squeeze(x, (0, 1)).shape, x.squeeze((-1,)).shape, x.squeeze(()).shape)
print(x.squeeze([1]).shape, x.squeeze(dim=(1, -1)).grad_fn._saved_dim)
(y * torch.arange(6.).view(2, 3)).sum().backward()
print(x.grad.shape, x.grad.view(-1))
print(x.squeeze(1).grad_fn, x.squeeze().grad_fn, torch.tensor(3.).squeeze((0,)))
