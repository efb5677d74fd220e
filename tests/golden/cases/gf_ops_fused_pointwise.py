# source: original
# topic: grad-fn
# compare: exact
# visibility: public
# addcmul, addcdiv, lerp (number and tensor weight), logaddexp, atan2 and acos: printed
# results with their grad_fn, next_functions, broadcasting gradients and a non-scalar backward.
import torch


def names(t):
    return [(None if f is None else type(f).__name__, i) for f, i in t.grad_fn.next_functions]


x = torch.tensor([[0.5, -1.25, 2.0], [3.0, 0.1, -0.7]], requires_grad=True)
a = torch.tensor([1.5, -2.0, 0.3], requires_grad=True)
b = torch.tensor([[0.2], [-4.0]], requires_grad=True)
c = torch.tensor([2.0, 0.5, -3.0])

y = torch.addcmul(x, a, b, value=0.5)
print(y, names(y))
y.sum().backward()
print(x.grad, a.grad, b.grad, sep="\n")

for t in (x, a, b):
    t.grad = None
y = torch.addcdiv(x, a, b, value=2)
print(y, names(y))
y.backward(torch.tensor([[1.0, -1.0, 0.5], [2.0, 0.0, 1.0]]))
print(x.grad, a.grad, b.grad, sep="\n")

z = x.addcmul(a, c)
print(z, names(z))
print(torch.addcdiv(c, c, a).tolist())

for t in (x, a, b):
    t.grad = None
y = torch.lerp(x, a, 0.3)
print(y, names(y))
y.sum().backward()
print(x.grad, a.grad, sep="\n")
print(torch.lerp(c, a, 0.75).tolist())

w = torch.tensor([0.25, 0.9, -0.5], requires_grad=True)
for t in (x, a):
    t.grad = None
y = x.lerp(a, w)
print(y, names(y))
(y * y).sum().backward()
print(x.grad, a.grad, w.grad, sep="\n")

p = torch.tensor([0.0, 1.0, -2.0, 100.0], requires_grad=True)
q = torch.tensor([0.0, -1.0, 3.0, 99.0], requires_grad=True)
y = torch.logaddexp(p, q)
print(y, names(y))
y.backward(torch.tensor([1.0, 2.0, 3.0, 4.0]))
print(p.grad, q.grad)
inf = torch.tensor([float("inf"), -float("inf")])
print(torch.logaddexp(inf, inf))

for t in (p, q):
    t.grad = None
y = torch.atan2(p, q)
print(y, names(y))
y.sum().backward()
print(p.grad, q.grad)

u = torch.tensor([0.5, -0.25, 0.0, 0.9], requires_grad=True)
y = u.acos()
print(y, names(y))
print(y.tolist())
y.sum().backward()
print(u.grad)
print(torch.arccos(torch.tensor([1, 0])), torch.atan2(torch.tensor([1]), torch.tensor([2])))
