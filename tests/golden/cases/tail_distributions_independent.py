# source: original
# topic: torch.distributions
# compare: exact
# visibility: public
# Independent: a diagonal Gaussian over vectors (a VAE's posterior), its shapes, log_prob and
# entropy summed over the event, rsample, KL to the prior, expand, errors, seeded.
import torch
from torch.distributions import Independent, Normal, kl_divergence

torch.manual_seed(0)
mu = torch.tensor([[0.0, 0.5, -1.0], [1.0, 0.0, 2.0]], requires_grad=True)
log_var = torch.tensor([[0.0, -1.0, 0.5], [0.2, 0.0, -0.3]], requires_grad=True)
q = Independent(Normal(mu, (0.5 * log_var).exp()), 1)
print(q)
print(q.batch_shape, q.event_shape, q.has_rsample, q.support)
z = q.rsample()
lp = q.log_prob(z)
print(z, lp, lp.grad_fn)
print(q.entropy(), q.mean.shape, q.variance)
prior = Independent(Normal(torch.zeros(2, 3), torch.ones(2, 3)), 1)
kl = kl_divergence(q, prior)
print(kl)
(kl.sum() - lp.sum()).backward()
print(mu.grad, log_var.grad)
print(q.sample((4,)).shape, Independent(Normal(torch.zeros(3), torch.ones(3)), 1).expand([2]).batch_shape)
print(Independent(Normal(torch.zeros(2, 3), torch.ones(2, 3)), 2).log_prob(torch.ones(2, 3)))
for args in ((Normal(torch.zeros(3), torch.ones(3)), 2),):
    try:
        Independent(*args)
    except ValueError as exc:
        print("ValueError", exc)
try:
    q.log_prob(torch.zeros(2, 4))
except ValueError as exc:
    print("ValueError", exc)
