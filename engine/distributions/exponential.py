"""The exponential distribution (`torch.distributions.exponential.Exponential`): waiting times
at a given rate. `rsample()` divides a standard exponential draw by the rate, so the gradient
reaches the rate; every method is written as PyTorch writes it."""
from __future__ import annotations


from ..factories import empty, zeros_like
from ..tensor import Tensor
from . import constraints
from .distribution import ExponentialFamily
from .utils import EMPTY

__all__ = ["Exponential"]


class Exponential(ExponentialFamily):
    """Exp(rate): density rate · exp(−rate · x) for x ≥ 0."""

    arg_constraints = {"rate": constraints.positive}
    support = constraints.nonnegative
    has_rsample = True

    def __init__(self, rate, validate_args=None) -> None:
        batch_shape = self._broadcast_parameters(rate=rate)
        super().__init__(batch_shape, validate_args=validate_args)

    @property
    def mean(self) -> Tensor:
        return self.rate.reciprocal()

    @property
    def mode(self) -> Tensor:
        return zeros_like(self.rate)

    @property
    def stddev(self) -> Tensor:
        return self.rate.reciprocal()

    @property
    def variance(self) -> Tensor:
        return self.rate.pow(-2)

    def expand(self, batch_shape, _instance=None):
        return self._expand_parameters(Exponential, batch_shape, _instance, "rate")

    def rsample(self, sample_shape=EMPTY) -> Tensor:
        shape = self._extended_shape(sample_shape)
        return empty(shape, dtype=self.rate.dtype).exponential_() / self.rate

    def log_prob(self, value) -> Tensor:
        if self._validate_args:
            self._validate_sample(value)
        return self.rate.log() - self.rate * value

    def cdf(self, value) -> Tensor:
        if self._validate_args:
            self._validate_sample(value)
        return 1 - (-self.rate * value).exp()

    def icdf(self, value) -> Tensor:
        return -(-value).log1p() / self.rate

    def entropy(self) -> Tensor:
        return 1.0 - self.rate.log()
