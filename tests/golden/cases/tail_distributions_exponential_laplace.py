# source: original
# topic: torch.distributions
# compare: exact
# visibility: public
# Exponential and Laplace: rsample through the rate and the scale, log_prob, cdf, icdf,
# entropy, moments, KL with their own kind, the support's validation, seeded.
import torch
from torch.distributions import Exponential, Laplace, kl_divergence

torch.manual_seed(0)
rate = torch.tensor([0.5, 2.0, 4.0], requires_grad=True)
e = Exponential(rate)
print(e, e.support, e.mean, e.stddev, e.variance, e.mode)
x = e.rsample()
lp = e.log_prob(x)
print(x, lp, e.entropy())
print(e.cdf(torch.tensor([1.0, 1.0, 1.0])), e.icdf(torch.tensor([0.5, 0.5, 0.5])))
print(kl_divergence(e, Exponential(torch.ones(3))))
lp.sum().backward()
print(rate.grad, e.sample((2,)).shape, Exponential(1.5).sample())
loc = torch.tensor([0.0, 1.0], requires_grad=True)
scale = torch.tensor([1.0, 0.5], requires_grad=True)
lap = Laplace(loc, scale)
print(lap, lap.mean, lap.stddev, lap.variance)
y = lap.rsample((3,))
print(y, lap.log_prob(y))
print(lap.cdf(torch.tensor([0.5, 0.5])), lap.icdf(torch.tensor([0.25, 0.9])), lap.entropy())
print(kl_divergence(lap, Laplace(torch.zeros(2), torch.ones(2))))
(lap.log_prob(y).sum() + lap.entropy().sum()).backward()
print(loc.grad, scale.grad)
try:
    e.log_prob(torch.tensor([-1.0, 0.0, 1.0]))
except ValueError as exc:
    print("ValueError", exc)
try:
    Laplace(0.0, 0.0)
except ValueError as exc:
    print("ValueError", exc)
