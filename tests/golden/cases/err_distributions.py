# source: original
# topic: torch.distributions
# compare: exact
# visibility: public
# The distributions' argument and sample validation, caught and printed in PyTorch's words.
import torch
from torch.distributions import Bernoulli, Categorical, Normal, Uniform, kl_divergence


def attempt(fn):
    try:
        fn()
    except Exception as exc:
        print(type(exc).__name__, exc)


attempt(lambda: Normal(0.0, -1.0))
attempt(lambda: Normal(torch.tensor([0.0, 1.0]), torch.tensor([1.0, 0.0])))
attempt(lambda: Normal(torch.tensor([float("nan")]), torch.tensor([1.0])))
attempt(lambda: Normal(0.0, 1.0).log_prob(torch.tensor(float("nan"))))
attempt(lambda: Normal(torch.zeros(2), torch.ones(2)).log_prob(torch.zeros(3)))
attempt(lambda: Normal(0.0, 1.0).log_prob(0.5))
attempt(lambda: Categorical(torch.tensor([0.5, 0.5]), torch.tensor([0.0, 0.0])))
attempt(lambda: Categorical())
attempt(lambda: Categorical(probs=torch.tensor(1.0)))
attempt(lambda: Categorical(probs=torch.tensor([0.5, -0.5])))
attempt(lambda: Categorical(logits=torch.zeros(3)).log_prob(torch.tensor(3)))
attempt(lambda: Categorical(logits=torch.zeros(3)).log_prob(torch.tensor(1.5)))
attempt(lambda: Bernoulli(probs=torch.tensor([1.5])))
attempt(lambda: Bernoulli(probs=0.5).log_prob(torch.tensor(2.0)))
attempt(lambda: Uniform(1.0, 0.0))
attempt(lambda: Uniform(torch.tensor([0.0]), torch.tensor([1.0])).log_prob(torch.tensor([2.0])))
attempt(lambda: kl_divergence(Normal(0.0, 1.0), Bernoulli(0.5)))
attempt(lambda: Normal(0.0, 1.0).enumerate_support())
print(Normal(0.0, -1.0, validate_args=False).scale)
