"""`torch.distributions`: probability distributions whose samples and log-densities are
tensors in the graph, for the programs after the first ones (a VAE's reparameterised sample,
REINFORCE's log-probability of an action).

PyTorch counterparts: `torch.distributions.{Distribution, Normal, Uniform, Exponential,
Laplace, Categorical, Bernoulli, Independent, kl_divergence, register_kl, constraints}`. The
distinction a learner meets first is kept exactly: `rsample()` is built from engine ops on the
parameters (loc + eps * scale), so gradients reach them; `sample()` runs under no_grad, so
they do not. Each method records the ops PyTorch records, in its order, so grad_fn names and
printed values are PyTorch's.
"""
from __future__ import annotations

from . import constraints
from .normal import Normal
from .uniform import Uniform
from .bernoulli import Bernoulli
from .categorical import Categorical
from .distribution import Distribution, ExponentialFamily
from .exponential import Exponential
from .independent import Independent
from .laplace import Laplace
from .kl import kl_divergence, register_kl

__all__ = ["Bernoulli", "Categorical", "Distribution", "Exponential", "ExponentialFamily",
           "Independent", "Laplace", "Normal", "Uniform", "constraints", "kl_divergence",
           "register_kl"]
