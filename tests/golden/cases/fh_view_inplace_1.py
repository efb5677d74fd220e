# source: original
# topic: inplace
# compare: exact
# visibility: public
# An in-place op on a view (.view(), .t(), a slice, an index) of a non-leaf makes the base's
# grad_fn a CopySlices and every view's an AsStridedBackward0; gradients flow through both.
import torch
x = torch.tensor([[1.0, 2.0], [3.0, 4.0]], requires_grad=True)
y = x * 2
v = y.view(4)
v.mul_(3)
print(y.grad_fn, v.grad_fn)
print(type(y.grad_fn).__name__, type(v.grad_fn).__name__)
print(y.grad_fn.next_functions)
print(v.grad_fn.next_functions)
print(y._version, v._version)
print(y)
print(v)
v.sum().backward(retain_graph=True)
print(x.grad)
x.grad = None
y.sum().backward()
print(x.grad)
a = torch.tensor([[1.0, 2.0], [3.0, 4.0]], requires_grad=True)
b = a + 1
bt = b.t()
bt.add_(10)
print(b.grad_fn.name(), bt.grad_fn.name(), b.is_leaf, bt.is_leaf)
(b * torch.tensor([[1.0, 2.0], [3.0, 4.0]])).sum().backward()
print(a.grad)
c = torch.tensor([1.0, 2.0, 3.0], requires_grad=True)
d = c * 1
s = d[1:]
s.exp_()
print(d.grad_fn.name(), s.grad_fn.name())
d.sum().backward()
print(c.grad)
e = torch.tensor([1.0, 2.0, 3.0, 4.0], requires_grad=True)
f = e.clone()
g = f.view(2, 2)
g2 = g[0]
g2.mul_(5)
print(f.grad_fn.name(), g.grad_fn.name(), g2.grad_fn.name())
print(f)
f.sum().backward()
print(e.grad)
h = torch.tensor([1.0, 2.0, 3.0, 4.0], requires_grad=True)
k = h * 1
kv = k.view(2, 2)
k.mul_(2)
print(kv.grad_fn.name(), k.grad_fn.name())
kv.sum().backward()
print(h.grad)
m = torch.tensor([1.0, 2.0], requires_grad=True)
n = m * 1
nv = n.unsqueeze(0)
nv.zero_()
print(n.grad_fn.name(), nv.grad_fn.name())
p = (n * 1).transpose(0, 0)
w = torch.tensor([1.0, 2.0], requires_grad=True)
z = torch.zeros(2, 2)
z.view(4)[:2].copy_(w)
print(z, z.grad_fn)
c = torch.tensor([1.0, 2.0, 3.0], requires_grad=True)
d = c * 2
s = d[1:]
s[0] = 5
print(d, s)
print(d.grad_fn.name(), s.grad_fn.name(), d.grad_fn.next_functions)
d.sum().backward(retain_graph=True)
print(c.grad)
w = torch.tensor([2.0], requires_grad=True)
e = c * 3
e[1:].mul_(w)
print(e, e.grad_fn.next_functions)
(e * torch.tensor([1.0, 2.0, 3.0])).sum().backward()
print(c.grad, w.grad)
m = torch.tensor([[1.0, 2.0], [3.0, 4.0]], requires_grad=True)
n = m.t() * 1
r = n[0]
r.add_(n[1])
print(n, r)
print(n.grad_fn.name(), r.grad_fn.name())
n.pow(2).sum().backward()
print(m.grad)
p = torch.tensor([1.0, 2.0, 3.0, 4.0], requires_grad=True)
q = p * 1
q2 = q.view(2, 2)
q2[0, 1] = 0
q2[:, 0].mul_(10)
print(q, q2, q.grad_fn.name(), q2.grad_fn.name())
g, = torch.autograd.grad((q ** 2).sum(), p, create_graph=True)
print(g, g.grad_fn)
u = torch.tensor([1.0, 2.0], requires_grad=True)
v = u * 1
vv = v.view(2)
vv.mul_(3)
try:
    v.sum().backward()
    v.sum().backward()
except RuntimeError as ex:
    print("RuntimeError", str(ex)[:60])
print(u.grad)
x = torch.ones(3, requires_grad=True)
y = x.clone()
y[0].mul_(2)
y[1:].sigmoid_()
print(y, y.grad_fn.name())
y.sum().backward()
print(x.grad)
print(y._version)
