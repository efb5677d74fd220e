# source: original
# topic: detach
# compare: exact
# visibility: public
# detach() shares storage and the version counter but is no view (_base is None, detach_() is
# allowed on it): in-place writes through it are seen by backward's saved-tensor check, writes
# through .data are not; F.linear saves the weight only when its input needs a gradient, so a
# weight changed in place after forward still trains a layer fed plain data.
import torch
x = torch.tensor([1.0, 2.0, 3.0], requires_grad=True)
d = x.detach()
print(d._base is x, d._base is None, d.is_leaf, d.requires_grad, d._version, x._version)
y = x * 2
yd = y.detach()
print(yd._base is y, yd.is_leaf)
try:
    d.detach_(); print("detach_ ok", d)
except Exception as e: print(type(e).__name__, e)
try:
    yd.detach_(); print("detach_ ok")
except Exception as e: print(type(e).__name__, e)
z = x.exp()
x.detach().zero_()
print(x, x._version)
try: z.sum().backward()
except Exception as e: print(type(e).__name__, e)
x2 = torch.tensor([1.0, 2.0], requires_grad=True)
w = x2 ** 2
x2.detach().add_(1.0)
print(x2._version)
try: w.sum().backward(); print(x2.grad)
except Exception as e: print(type(e).__name__, e)
v = x2.detach()
v[0] = 5.0
print(x2, v._version, x2._version)
a = torch.tensor([1.0, 2.0], requires_grad=True)
b = a.detach()
b.requires_grad_()
print(b.requires_grad, b.is_leaf)
c = (a * 1).detach()
c.mul_(2); print(c)
t = torch.tensor([1.0, 2.0])
print(t.detach()._base is t)
q = torch.tensor([1.0, 2.0], requires_grad=True)
with torch.no_grad():
    q2 = q.detach()
print(q2._base is q)
e = x.data
print(e._base is None)
x = torch.tensor([1.0, 2.0, 3.0], requires_grad=True)
y = x.sigmoid()
y.detach().mul_(2)
print(y, y._version)
try: y.sum().backward()
except RuntimeError as e: print("RuntimeError", e)
x = torch.tensor([1.0, 2.0, 3.0], requires_grad=True)
w = x * x
x.data.add_(1.0)
print(x._version)
w.sum().backward(); print(x.grad)
x = torch.tensor([1.0, 2.0, 3.0], requires_grad=True)
d = x.detach()
d[1:].mul_(3)
print(x, x._version, d._version)
m = torch.nn.Linear(2, 1)
with torch.no_grad():
    m.weight.copy_(torch.tensor([[0.5, -1.0]]))
out = m(torch.ones(1, 2))
m.weight.detach().zero_()
print(m.weight, m.weight._version)
try: out.sum().backward(); print(m.weight.grad)
except RuntimeError as e: print("RuntimeError", e)
h = torch.tensor([1.0, -1.0], requires_grad=True)
r = h.relu()
r.detach().zero_()
try: (r * 2).sum().backward(); print(h.grad)
except RuntimeError as e: print("RuntimeError", e)
d = h.detach()
d.detach_()
print(d.grad_fn, d.is_leaf, d._version)
k = (h * 2)
k.detach_()
print(k.grad_fn, k.requires_grad, k.is_leaf)
vw = (h * 2)[0:1]
try: vw.detach_()
except RuntimeError as e: print("RuntimeError", e)
