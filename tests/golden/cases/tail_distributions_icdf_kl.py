# source: original
# topic: torch.distributions
# compare: exact
# visibility: public
# Normal.icdf (through erfinv) with gradients to loc, scale and the probability; the KL
# divergences PyTorch registers between different kinds (Normal, Uniform, Exponential,
# Laplace), with their gradients, the infinite ones (a tensor of inf without a graph), the inf
# written where a uniform reaches below zero, through Independent, and an unregistered pair.
import torch
from torch.distributions import (Exponential, Independent, Laplace, Normal, Uniform,
                                 kl_divergence)

loc = torch.tensor([0.0, 1.0, -2.0], requires_grad=True)
scale = torch.tensor([1.0, 0.5, 2.0], requires_grad=True)
n = Normal(loc, scale)
q = torch.tensor([0.025, 0.5, 0.9], requires_grad=True)
x = n.icdf(q)
print(x, x.grad_fn)
print(n.cdf(x))
x.sum().backward()
print(loc.grad, scale.grad, q.grad)
print(Normal(0.0, 1.0).icdf(torch.tensor([0.0, 0.1587, 1.0])))
n64 = Normal(torch.tensor(1.0, dtype=torch.float64), 2.0)
print(n64.icdf(torch.tensor(0.75, dtype=torch.float64)))
print(Normal(torch.tensor([0.0, 1.0]), 1.0).icdf(torch.tensor([[0.3], [0.6]])))
try:
    Normal(0.0, 1.0).icdf(0.5)
except TypeError as exc:
    print("TypeError", exc)

rate = torch.tensor([0.5, 2.0, 4.0], requires_grad=True)
low = torch.tensor([0.0, 0.5, -1.0], requires_grad=True)
high = torch.tensor([1.0, 2.0, 1.0], requires_grad=True)
lap_loc = torch.tensor([0.5, -1.0, 0.0], requires_grad=True)
lap_scale = torch.tensor([1.0, 2.0, 0.25], requires_grad=True)
e, u, lap = Exponential(rate), Uniform(low, high), Laplace(lap_loc, lap_scale)
params = [loc, scale, rate, low, high, lap_loc, lap_scale]
for name, p_, q_ in [("exponential-normal", e, n), ("laplace-normal", lap, n),
                     ("normal-laplace", n, lap), ("uniform-exponential", u, e),
                     ("uniform-normal", u, n)]:
    for t in params:
        t.grad = None
    kl = kl_divergence(p_, q_)
    print(name, kl, kl.grad_fn)
    kl.sum().backward()
    print([None if t.grad is None else t.grad for t in params])
for name, p_, q_ in [("exponential-uniform", e, u), ("laplace-exponential", lap, e),
                     ("laplace-uniform", lap, u), ("normal-exponential", n, e),
                     ("normal-uniform", n, u)]:
    kl = kl_divergence(p_, q_)
    print(name, kl, kl.requires_grad, kl.grad_fn, kl.dtype)
print(kl_divergence(Uniform(-1.0, 1.0), Exponential(1.0)))
print(kl_divergence(Normal(torch.zeros(2, 3), 1.0), Laplace(0.0, torch.ones(3))))
ind = kl_divergence(Independent(Normal(loc, scale), 1),
                    Independent(Laplace(lap_loc, lap_scale), 1))
print(ind, ind.grad_fn)
try:
    kl_divergence(e, lap)
except NotImplementedError as exc:
    print("NotImplementedError", exc)
try:
    kl_divergence(u, lap)
except NotImplementedError as exc:
    print("NotImplementedError", exc)
