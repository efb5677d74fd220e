# source: original
# topic: saved tensors
# compare: exact
# visibility: public
# A node's saved output is a new tensor object each time (the autograd notes' example), and
# the tangent of autograd.functional.jvp through a dim reduction ends in SqueezeBackward1.
import torch
from torch.autograd.functional import jvp

x = torch.tensor([1., 2.], requires_grad=True)
y = x.exp()
print(y is y.grad_fn._saved_result)
print(y.grad_fn._saved_result.equal(y))
print(y.grad_fn._saved_result)
s = x.sigmoid()
r = s.grad_fn._saved_result
print(r is s.grad_fn._saved_result, r.requires_grad, r._version, r.grad_fn.name())
print(x is (x * x).grad_fn._saved_self)
y.sum().backward()
print(x.grad)


def exp_reducer(t):
    return t.exp().sum(dim=1)


inputs = torch.tensor([[0., 1.], [2., 0.5]], requires_grad=True)
out, tangent = jvp(exp_reducer, inputs, torch.ones(2, 2), create_graph=True)
print(out, tangent)
print(tangent.grad_fn.name(), tangent.grad_fn.next_functions[0][0].name())
out, tangent = jvp(lambda t: t.mean(dim=(0, 1)), inputs, torch.ones(2, 2), create_graph=True)
print(tangent)
z = torch.ones(2, 3, requires_grad=True)
g, = torch.autograd.grad(z.sum(dim=1), z, torch.ones(2, requires_grad=True),
                         create_graph=True)
print(g.grad_fn.name(), g.grad_fn.next_functions[0][0].name())
