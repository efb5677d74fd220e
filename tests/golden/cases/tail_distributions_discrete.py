# source: original
# topic: torch.distributions
# compare: exact
# visibility: public
# Categorical and Bernoulli: a policy-gradient step (the gradient reaches the logits through
# log_prob, not through the sample), probs and logits made from each other, entropy, KL,
# enumerate_support, seeded.
import torch
from torch.distributions import Bernoulli, Categorical, kl_divergence

torch.manual_seed(0)
logits = torch.tensor([[1.0, 0.0, -1.0], [0.5, 0.5, 2.0]], requires_grad=True)
pi = Categorical(logits=logits)
print(pi, pi.batch_shape, pi.event_shape, pi.param_shape)
print(pi.logits, pi.probs)
a = pi.sample()
print(a, a.dtype, a.requires_grad)
print(pi.sample((3,)))
lp = pi.log_prob(a)
print(lp, lp.grad_fn)
reward = torch.tensor([1.0, -2.0])
loss = -(lp * reward).sum()
loss.backward()
print(logits.grad)
print(pi.entropy(), pi.mode, pi.mean)
print(pi.enumerate_support(), pi.enumerate_support(expand=False).shape)
p2 = Categorical(probs=torch.tensor([0.2, 0.3, 0.5]))
print(p2, p2.probs, p2.logits)
print(kl_divergence(p2, Categorical(probs=torch.tensor([0.5, 0.25, 0.25]))))
print(p2.expand([2]).batch_shape)
b = Bernoulli(probs=torch.tensor([0.25, 0.5, 0.9], requires_grad=True))
print(b, b.logits, b.mean, b.variance)
x = b.sample()
print(x, b.log_prob(x), b.entropy())
b2 = Bernoulli(logits=torch.tensor([0.0, 2.0]))
print(b2, b2.probs, b2.sample((2,)), b2.enumerate_support())
print(kl_divergence(Bernoulli(0.3), Bernoulli(0.6)))
print(Bernoulli(0.5).mode, Bernoulli(torch.tensor([0.2, 0.7])).mode)
