# source: original
# topic: torch.func
# compare: exact
# visibility: public
# torch.func's transforms: grad (nested, argnums, has_aux), vjp, jvp, jacrev, jacfwd, hessian,
# vmap (in_dims) and functional_call, with grad over a module's parameters.
import torch
from torch.func import functional_call, grad, hessian, jacfwd, jacrev, jvp, vjp, vmap


def f(x):
    return (x.sin() * x).sum()


def g(x):
    return x ** 2 + x.sin()


x = torch.tensor([0.5, 1.0, 2.0])
print(grad(f)(x))
print(grad(grad(lambda t: t.sin()))(torch.tensor(1.0)))
print(torch.func.grad_and_value(f)(x))
out, vjp_fn = vjp(g, x)
print(out)
print(vjp_fn(torch.ones(3)))
print(vjp_fn(torch.tensor([1., 0., -1.])))
out, tangent = jvp(g, (x,), (torch.ones(3),))
print(out, tangent)
print(jacrev(g)(x))
print(jacfwd(g)(x))
print(hessian(f)(x))
W = torch.tensor([[1., 2.], [3., 4.], [5., 6.]])
print(vmap(torch.dot)(torch.ones(3, 2), W))
print(vmap(lambda r: r @ torch.tensor([1., -1.]))(W))
print(vmap(g, in_dims=1)(W))
print(vmap(torch.mul, in_dims=(0, None))(W, torch.tensor([10., 100.])))
lin = torch.nn.Linear(2, 1)
params = {"weight": torch.tensor([[1., 2.]]), "bias": torch.tensor([0.5])}
print(functional_call(lin, params, (torch.tensor([[1., 1.]]),)))
print(grad(lambda p, t: functional_call(lin, p, (t,)).sum())(params, torch.tensor([[1., 3.]])))
print(lin.weight.shape, lin.weight.requires_grad)


def h(a, b):
    return (a * b).sum()


print(grad(h, argnums=(0, 1))(torch.tensor([1., 2.]), torch.tensor([3., 4.])))
print(grad(lambda a: (a.exp().sum(), a), has_aux=True)(torch.tensor([0., 1.])))
print(jacrev(h, argnums=1)(torch.tensor([1., 2.]), torch.tensor([3., 4.])))
print(jacfwd(lambda a, b: a * b, argnums=(0, 1))(torch.tensor([1., 2.]), torch.tensor([3., 4.])))
print(jacrev(lambda t: t.sum(0))(torch.ones(2, 2)))
per_sample = vmap(grad(lambda w, xi: (w * xi).sum() ** 2), in_dims=(None, 0))
print(per_sample(torch.tensor([1., -1.]), torch.tensor([[1., 2.], [3., 5.]])))
try:
    grad(g)(x)
except RuntimeError as e:
    print("RuntimeError", e)
try:
    vmap(torch.dot)(torch.ones(3, 2), torch.ones(2, 2))
except ValueError as e:
    print("ValueError", e)
try:
    jvp(g, x, (torch.ones(3),))
except RuntimeError as e:
    print("RuntimeError", e)
