"""The normal distribution (`torch.distributions.normal.Normal`): the reparameterised sample a
VAE trains through.

Every expression is written as PyTorch writes it, in its order, so the graph a learner sees
holds the same nodes: `rsample()` is AddBackward0 over MulBackward0 of the parameters and a
standard-normal draw, while `sample()` draws under no_grad and so has no grad_fn.
"""
from __future__ import annotations

import math

from ..factories import empty, normal
from ..foreign_operands import tensor_input
from ..grad_mode import no_grad
from ..ops.special import erfinv
from ..tensor import Tensor
from . import constraints
from .distribution import ExponentialFamily
from .utils import EMPTY

__all__ = ["Normal"]

# torch.erfinv as a program calls it: icdf of a plain number fails in its words
_erfinv = tensor_input(erfinv, Tensor, "erfinv")


class Normal(ExponentialFamily):
    """N(loc, scale²), batched over the broadcast shape of loc and scale."""

    arg_constraints = {"loc": constraints.real, "scale": constraints.positive}
    support = constraints.real
    has_rsample = True

    def __init__(self, loc, scale, validate_args=None) -> None:
        batch_shape = self._broadcast_parameters(loc=loc, scale=scale)
        super().__init__(batch_shape, validate_args=validate_args)

    @property
    def mean(self) -> Tensor:
        return self.loc

    @property
    def mode(self) -> Tensor:
        return self.loc

    @property
    def stddev(self) -> Tensor:
        return self.scale

    @property
    def variance(self) -> Tensor:
        return self.stddev.pow(2)

    def expand(self, batch_shape, _instance=None):
        return self._expand_parameters(Normal, batch_shape, _instance, "loc", "scale")

    def sample(self, sample_shape=EMPTY) -> Tensor:
        shape = self._extended_shape(sample_shape)
        with no_grad():
            return normal(self.loc.expand(shape), self.scale.expand(shape))

    def rsample(self, sample_shape=EMPTY) -> Tensor:
        shape = self._extended_shape(sample_shape)
        eps = empty(shape, dtype=self.loc.dtype).normal_()
        return self.loc + eps * self.scale

    def log_prob(self, value) -> Tensor:
        if self._validate_args:
            self._validate_sample(value)
        var = self.scale ** 2
        log_scale = self.scale.log()
        return -((value - self.loc) ** 2) / (2 * var) - log_scale - math.log(math.sqrt(2 * math.pi))

    def cdf(self, value) -> Tensor:
        if self._validate_args:
            self._validate_sample(value)
        return 0.5 * (1 + ((value - self.loc) * self.scale.reciprocal() / math.sqrt(2)).erf())

    def icdf(self, value) -> Tensor:
        return self.loc + self.scale * _erfinv(2 * value - 1) * math.sqrt(2)

    def entropy(self) -> Tensor:
        return 0.5 + 0.5 * math.log(2 * math.pi) + self.scale.log()
