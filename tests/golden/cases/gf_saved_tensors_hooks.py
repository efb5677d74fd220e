# source: original
# topic: grad_fn
# compare: exact
# visibility: public
# torch.autograd.graph.saved_tensors_hooks: pack runs when an op saves a tensor (not for a
# wrapped number, not under no_grad), unpack when backward or _saved_<name> needs it; what
# unpack returns is what backward uses. save_on_cpu changes no value.
import torch
import torch.autograd.graph as graph
from torch.autograd.graph import saved_tensors_hooks


def pack(x):
    print("pack", x)
    return x


def unpack(x):
    print("unpack", x)
    return x


a = torch.tensor([1., 2.], requires_grad=True)
b = torch.tensor([3., 4.], requires_grad=True)
with saved_tensors_hooks(pack, unpack):
    y = a * b
    z = y.exp()
    w = (z * 2).sum()
    s = a.sin()
print("forward done")
w.backward()
print(a.grad, b.grad)
print(s.grad_fn._saved_self)
print(s.grad_fn._saved_self)

with graph.saved_tensors_hooks(lambda t: t.tolist(), lambda saved: torch.tensor(saved)):
    q = a.pow(2)
    e = a.exp()
print(q.grad_fn._saved_self, q.grad_fn._saved_self is a)
print(e.grad_fn._saved_result, e.grad_fn._saved_result.grad_fn is e.grad_fn)
a.grad = None
q.sum().backward()
print(a.grad)

with torch.no_grad(), saved_tensors_hooks(pack, unpack):
    print(a * b)
with saved_tensors_hooks(lambda x: None, lambda x: torch.ones(2)):
    v = a * b
a.grad = None
v.sum().backward()
print(a.grad, b.grad)


def outer(x):
    print("outer pack")
    return x


def inner(x):
    print("inner pack")
    return x


with saved_tensors_hooks(outer, unpack):
    with saved_tensors_hooks(inner, unpack):
        u = a.exp()
    t = a.cos()
u.sum().backward(retain_graph=True)
u.sum().backward()
try:
    u.sum().backward()
except RuntimeError as err:
    print("third backward:", str(err)[:60])

with graph.save_on_cpu():
    r = a * b
a.grad = None
r.sum().backward()
print(a.grad, type(graph.save_on_cpu()).__name__, graph.saved_tensors_hooks)
