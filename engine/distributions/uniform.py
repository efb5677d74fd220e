"""The uniform distribution on [low, high) (`torch.distributions.uniform.Uniform`), written
as PyTorch writes it, so its samples and log-densities record the same nodes."""
from __future__ import annotations

import math

from ..factories import rand
from ..tensor import Tensor
from . import constraints
from .distribution import Distribution
from .utils import EMPTY

__all__ = ["Uniform"]


class Uniform(Distribution):
    """U[low, high), batched over the broadcast shape of low and high."""

    has_rsample = True

    @property
    def arg_constraints(self) -> dict:
        return {"low": constraints.less_than(self.high),
                "high": constraints.greater_than(self.low)}

    @constraints.dependent_property(is_discrete=False, event_dim=0)
    def support(self):
        return constraints.interval(self.low, self.high)

    def __init__(self, low, high, validate_args=None) -> None:
        batch_shape = self._broadcast_parameters(low=low, high=high)
        super().__init__(batch_shape, validate_args=validate_args)

    @property
    def mean(self) -> Tensor:
        return (self.high + self.low) / 2

    @property
    def mode(self) -> Tensor:
        return math.nan * self.high

    @property
    def stddev(self) -> Tensor:
        return (self.high - self.low) / 12 ** 0.5

    @property
    def variance(self) -> Tensor:
        return (self.high - self.low).pow(2) / 12

    def expand(self, batch_shape, _instance=None):
        return self._expand_parameters(Uniform, batch_shape, _instance, "low", "high")

    def rsample(self, sample_shape=EMPTY) -> Tensor:
        shape = self._extended_shape(sample_shape)
        return self.low + rand(shape, dtype=self.low.dtype) * (self.high - self.low)

    def log_prob(self, value) -> Tensor:
        if self._validate_args:
            self._validate_sample(value)
        lb = self.low.le(value).type_as(self.low)
        ub = self.high.gt(value).type_as(self.low)
        return lb.mul(ub).log() - (self.high - self.low).log()

    def cdf(self, value) -> Tensor:
        if self._validate_args:
            self._validate_sample(value)
        return ((value - self.low) / (self.high - self.low)).clamp(min=0, max=1)

    def icdf(self, value) -> Tensor:
        return value * (self.high - self.low) + self.low

    def entropy(self) -> Tensor:
        return (self.high - self.low).log()
