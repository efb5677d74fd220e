"""The Laplace distribution (`torch.distributions.laplace.Laplace`): a sharper peak and heavier
tails than the normal, the prior behind an L1 penalty. `rsample()` turns a uniform draw u into
loc − scale · sign(u) · log1p(−|u|), as PyTorch does, so the gradient reaches loc and scale."""
from __future__ import annotations

from ..factories import empty
from ..tensor import Tensor
from ..type_info import finfo
from . import constraints
from .distribution import Distribution
from .utils import EMPTY

__all__ = ["Laplace"]


class Laplace(Distribution):
    """Laplace(loc, scale): density exp(−|x − loc| / scale) / (2 · scale)."""

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
    def variance(self) -> Tensor:
        return 2 * self.scale.pow(2)

    @property
    def stddev(self) -> Tensor:
        return (2 ** 0.5) * self.scale

    def expand(self, batch_shape, _instance=None):
        return self._expand_parameters(Laplace, batch_shape, _instance, "loc", "scale")

    def rsample(self, sample_shape=EMPTY) -> Tensor:
        shape = self._extended_shape(sample_shape)
        u = empty(shape, dtype=self.loc.dtype).uniform_(finfo(self.loc.dtype).eps - 1, 1)
        return self.loc - self.scale * u.sign() * (-u.abs()).log1p()

    def log_prob(self, value) -> Tensor:
        if self._validate_args:
            self._validate_sample(value)
        return -(2 * self.scale).log() - (value - self.loc).abs() / self.scale

    def cdf(self, value) -> Tensor:
        if self._validate_args:
            self._validate_sample(value)
        return 0.5 - 0.5 * (value - self.loc).sign() * (
            -(value - self.loc).abs() / self.scale).expm1()

    def icdf(self, value) -> Tensor:
        term = value - 0.5
        return self.loc - self.scale * term.sign() * (-2 * term.abs()).log1p()

    def entropy(self) -> Tensor:
        return 1 + (2 * self.scale).log()
