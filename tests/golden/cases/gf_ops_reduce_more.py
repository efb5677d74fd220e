# source: original
# topic: grad-fn
# compare: exact
# visibility: public
# amax/amin (ties share the gradient), cumprod (with zeros), dist, var_mean and std_mean
# (two outputs, one grad_fn): values, grad_fn names and gradients.
import torch


def names(t):
    return [(None if f is None else type(f).__name__, i) for f, i in t.grad_fn.next_functions]


A = torch.tensor([[1.0, 5.0, 5.0], [2.0, -1.0, 5.0], [0.5, 3.0, -2.0]], requires_grad=True)
m = A.amax()
print(m, names(m))
m.backward()
print(A.grad)

A.grad = None
m = torch.amax(A, dim=1)
print(m, names(m))
m.backward(torch.tensor([1.0, -2.0, 3.0]))
print(A.grad)

A.grad = None
m = A.amin(dim=(0, 1), keepdim=True)
print(m, names(m))
n = torch.amin(A, 0)
print(n)
(m.sum() + n.sum()).backward()
print(A.grad)
print(torch.tensor([[1, 7], [7, 3]]).amax(1))

x = torch.tensor([2.0, 0.5, -1.5, 3.0], requires_grad=True)
y = x.cumprod(0)
print(y, names(y))
y.backward(torch.tensor([1.0, 0.5, -1.0, 2.0]))
print(x.grad)

z = torch.tensor([2.0, 0.0, 3.0, 0.0, 4.0], requires_grad=True)
y = torch.cumprod(z, dim=0)
print(y)
y.sum().backward()
print(z.grad)

M = torch.tensor([[1.0, 2.0, 0.0], [3.0, -1.0, 2.0]], requires_grad=True)
y = M.cumprod(1)
print(y)
y.sum().backward()
print(M.grad)
print(torch.tensor([1, 2, 3]).cumprod(0))

p = torch.tensor([1.0, 2.0, 3.0], requires_grad=True)
q = torch.tensor([[0.5, 2.0, 5.0], [1.0, 1.0, 1.0]], requires_grad=True)
d = torch.dist(p, q)
print(d, names(d))
d.backward()
print(p.grad, q.grad, sep="\n")
p.grad = None
d = p.dist(torch.tensor([0.0, 0.0, 0.0]), 1)
print(d)
d.backward()
print(p.grad)

v, mu = torch.var_mean(A, dim=1)
print(v, mu, sep="\n")
print(type(v.grad_fn).__name__, v.grad_fn is mu.grad_fn, names(v))
A.grad = None
(v.sum() + 2 * mu.sum()).backward()
print(A.grad)
A.grad = None
torch.var_mean(A, 0, keepdim=True, correction=0)[1].sum().backward()
print(A.grad)
s, mu = torch.std_mean(A)
print(s, mu)
A.grad = None
s.backward()
print(A.grad)
print(torch.std_mean(A, dim=0, unbiased=False))
