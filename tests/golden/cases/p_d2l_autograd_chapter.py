# source: original
# topic: autograd
# compare: exact
# visibility: public
# The autograd chapter of d2l.ai as learners paste it: 2 * dot(x, x), zeroing, a non-scalar
# backward with a gradient, detach to cut a branch, and control flow through while/if.
import torch
x = torch.arange(4.0)
print(x)
x.requires_grad_(True)
print(x.grad)
y = 2 * torch.dot(x, x)
print(y)
y.backward()
print(x.grad)
print(x.grad == 4 * x)
x.grad.zero_()
y = x.sum()
y.backward()
print(x.grad)
x.grad.zero_()
y = x * x
y.backward(gradient=torch.ones(len(y)))
print(x.grad)
x.grad.zero_()
y = x * x
u = y.detach()
z = u * x
z.sum().backward()
print(x.grad == u)
x.grad.zero_()
y.sum().backward()
print(x.grad == 2 * x)
def f(a):
    b = a * 2
    while b.norm() < 1000:
        b = b * 2
    if b.sum() > 0:
        c = b
    else:
        c = 100 * b
    return c
a = torch.tensor(-0.3, requires_grad=True)
d = f(a)
d.backward()
print(a.grad == d / a)
print(a.grad, d / a)
