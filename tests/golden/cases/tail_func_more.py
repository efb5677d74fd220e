# source: original
# topic: torch.func
# compare: exact
# visibility: public
# vmap with out_dims, nested and with tuple outputs; Jacobians of tuple outputs; keyword
# arguments to grad; vjp and jvp of two inputs; torch.func.grad under regular autograd.
import torch
from torch.func import vmap, jacrev, jacfwd, grad, vjp, jvp
x = torch.tensor([[1., 2.], [3., 4.], [5., 6.]])
print(vmap(lambda r: r * 2, out_dims=1)(x))
print(vmap(vmap(lambda a: a ** 2))(x))
print(vmap(lambda r: (r.sum(), r.max()))(x))
print(vmap(lambda r, s: r * s, in_dims=(0, None))(x, torch.tensor(10.)))
print(jacrev(lambda t: (t.sin(), t.sum()))(torch.tensor([0., 1.])))
print(jacfwd(lambda t: (t.sin(), t.sum()))(torch.tensor([0., 1.])))
print(grad(lambda t, scale=1.0: (t * scale).sum())(torch.tensor([1., 2.]), scale=3.0))
out, fn = vjp(lambda a, b: a * b, torch.tensor([1., 2.]), torch.tensor([3., 4.]))
print(fn(torch.ones(2)))
print(jvp(lambda a, b: a * b, (torch.tensor([1., 2.]), torch.tensor([3., 4.])), (torch.ones(2), torch.zeros(2))))
print(grad(lambda t: t.max())(torch.tensor([1., 3., 2.])))
y = torch.tensor(2., requires_grad=True)
g = grad(lambda t: t ** 3)(y)
print(g)
g.backward()
print(y.grad)
