# source: original
# topic: torch.distributions
# compare: exact
# visibility: public
# Normal and Uniform: rsample keeps the graph (the reparameterisation trick), sample does not;
# log_prob, entropy, cdf, moments, shapes, expand, a VAE's KL term, seeded.
import torch
from torch.distributions import Normal, Uniform, kl_divergence

torch.manual_seed(0)
mu = torch.tensor([0.0, 1.0, -0.5], requires_grad=True)
log_sigma = torch.tensor([0.0, -0.7, 0.3], requires_grad=True)
q = Normal(mu, log_sigma.exp())
print(q)
print(q.batch_shape, q.event_shape, q.has_rsample)
z = q.rsample()
print(z, z.grad_fn, z.grad_fn.next_functions)
s = q.sample()
print(s, s.requires_grad, s.grad_fn)
print(q.sample((2,)).shape, q.rsample(torch.Size([4, 1])).shape)
lp = q.log_prob(z)
print(lp)
print(q.entropy(), q.cdf(torch.tensor([0.0, 0.0, 0.0])))
print(q.mean, q.stddev, q.variance, q.mode)
prior = Normal(torch.zeros(3), torch.ones(3))
kl = kl_divergence(q, prior)
print(kl)
loss = -lp.sum() + kl.sum()
loss.backward()
print(mu.grad, log_sigma.grad)
scalar = Normal(0.0, 1.0)
print(scalar, scalar.batch_shape, scalar.log_prob(torch.tensor(0.5)))
print(scalar.expand([2, 2]).batch_shape, scalar.perplexity())
u = Uniform(torch.tensor([0.0, 1.0]), torch.tensor([2.0, 4.0]))
print(u, u.mean, u.stddev, u.variance, u.entropy())
r = u.rsample()
print(r, u.log_prob(r), u.cdf(torch.tensor([1.0, 3.0])), u.icdf(torch.tensor([0.5, 0.5])))
print(kl_divergence(u, Uniform(torch.tensor([-1.0, 0.0]), torch.tensor([3.0, 3.0]))))
