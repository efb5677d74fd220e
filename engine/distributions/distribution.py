"""The base of every distribution (`torch.distributions.Distribution`): batch and event
shapes, argument and sample validation with PyTorch's messages, and the repr they quote.

Validation is on by default, as in PyTorch (its default follows `__debug__`): a parameter or a
scored value outside its constraint raises ValueError naming the parameter, its shape, the
distribution and the constraint, then printing the offending tensor.
"""
from __future__ import annotations

import warnings

from ..grad_mode import no_grad
from ..size import Size
from ..tensor import Tensor
from . import constraints
from .utils import EMPTY, broadcast_all, lazy_property

__all__ = ["Distribution", "ExponentialFamily"]


class Distribution:
    """A probability distribution over tensors of shape batch_shape + event_shape."""

    has_rsample = False
    has_enumerate_support = False
    _validate_args = True

    @staticmethod
    def set_default_validate_args(value: bool) -> None:
        if value not in [True, False]:
            raise ValueError
        Distribution._validate_args = value

    def __init__(self, batch_shape=EMPTY, event_shape=EMPTY, validate_args=None) -> None:
        self._batch_shape = batch_shape
        self._event_shape = event_shape
        if validate_args is not None:
            self._validate_args = validate_args
        if self._validate_args:
            try:
                arg_constraints = self.arg_constraints
            except NotImplementedError:
                arg_constraints = {}
                warnings.warn(f"{self.__class__} does not define `arg_constraints`. Please set "
                              "`arg_constraints = {}` or initialize the distribution with "
                              "`validate_args=False` to turn off validation.", stacklevel=2)
            for param, constraint in arg_constraints.items():
                # the names come from the program's class: read only what it could read
                # itself (a name as data must not become a getattr of a private attribute)
                if constraints.is_dependent(constraint) or not isinstance(param, str) \
                        or param.startswith("_"):
                    continue
                if param not in self.__dict__ and isinstance(getattr(type(self), param, None),
                                                             lazy_property):
                    continue    # the other parameter was given; this one is made on demand
                value = getattr(self, param)
                if not bool(constraint.check(value).all()):
                    raise ValueError(
                        f"Expected parameter {param} ({type(value).__name__} of shape "
                        f"{tuple(value.shape)}) of distribution {self!r} to satisfy the "
                        f"constraint {constraint!r}, but found invalid values:\n{value}")

    def expand(self, batch_shape, _instance=None):
        raise NotImplementedError

    @property
    def batch_shape(self) -> Size:
        return self._batch_shape

    @property
    def event_shape(self) -> Size:
        return self._event_shape

    @property
    def arg_constraints(self) -> dict:
        raise NotImplementedError

    @property
    def support(self):
        raise NotImplementedError

    @property
    def mean(self) -> Tensor:
        raise NotImplementedError

    @property
    def mode(self) -> Tensor:
        raise NotImplementedError(f"{self.__class__} does not implement mode")

    @property
    def variance(self) -> Tensor:
        raise NotImplementedError

    @property
    def stddev(self) -> Tensor:
        return self.variance.sqrt()

    def sample(self, sample_shape=EMPTY) -> Tensor:
        with no_grad():
            return self.rsample(sample_shape)

    def rsample(self, sample_shape=EMPTY) -> Tensor:
        raise NotImplementedError

    def log_prob(self, value: Tensor) -> Tensor:
        raise NotImplementedError

    def cdf(self, value: Tensor) -> Tensor:
        raise NotImplementedError

    def icdf(self, value: Tensor) -> Tensor:
        raise NotImplementedError

    def enumerate_support(self, expand: bool = True) -> Tensor:
        raise NotImplementedError

    def entropy(self) -> Tensor:
        raise NotImplementedError

    def perplexity(self) -> Tensor:
        return self.entropy().exp()

    def _extended_shape(self, sample_shape=EMPTY) -> Size:
        if not isinstance(sample_shape, Size):
            sample_shape = Size(sample_shape)
        return Size(sample_shape + self._batch_shape + self._event_shape)

    def _validate_sample(self, value) -> None:
        if not isinstance(value, Tensor):
            raise ValueError("The value argument to log_prob must be a Tensor")
        start = len(value.size()) - len(self._event_shape)
        if value.size()[start:] != self._event_shape:
            raise ValueError("The right-most size of value must match event_shape: "
                             f"{value.size()} vs {self._event_shape}.")
        actual, expected = value.size(), self._batch_shape + self._event_shape
        for i, j in zip(reversed(actual), reversed(expected)):
            if i != 1 and j != 1 and i != j:
                raise ValueError("Value is not broadcastable with batch_shape+event_shape: "
                                 f"{actual} vs {expected}.")
        try:
            support = self.support
        except NotImplementedError:
            warnings.warn(f"{self.__class__} does not define `support` to enable sample "
                          "validation. Please initialize the distribution with "
                          "`validate_args=False` to turn off validation.", stacklevel=2)
            return
        if not bool(support.check(value).all()):
            raise ValueError(
                f"Expected value argument ({type(value).__name__} of shape "
                f"{tuple(value.shape)}) to be within the support ({support!r}) of the "
                f"distribution {self!r}, but found invalid values:\n{value}")

    def _broadcast_parameters(self, **params) -> Size:
        """Set each parameter as a tensor, all broadcast to one shape (numbers become tensors
        as `broadcast_all` makes them), and return that shape: the batch shape of a
        distribution whose parameters are all scalars per element. (PyTorch's classes give
        `Size()` when every parameter is a number; the broadcast 0-d tensors have that size.)
        The attributes are set before `__init__` validates them."""
        values = broadcast_all(*params.values())
        for name, value in zip(params, values):
            setattr(self, name, value)
        return values[0].size()

    def _expand_parameters(self, cls, batch_shape, _instance, *names: str):
        """`expand` of a distribution whose parameters `names` hold one number per element
        of the batch (Normal's loc and scale): each is expanded, in order, to the new batch
        shape."""
        new = self._get_checked_instance(cls, _instance)
        batch_shape = Size(batch_shape)
        for name in names:
            setattr(new, name, getattr(self, name).expand(batch_shape))
        return self._finish_expand(new, batch_shape)

    def _finish_expand(self, new, batch_shape: Size, event_shape: Size = EMPTY):
        """The end of every `expand`: `new`, whose parameters are already expanded, takes the
        shapes without validating them again (they were valid before expanding) and keeps
        this distribution's validation setting."""
        Distribution.__init__(new, batch_shape, event_shape, validate_args=False)
        new._validate_args = self._validate_args
        return new

    def _get_checked_instance(self, cls, _instance=None):
        if _instance is None and type(self).__init__ != cls.__init__:
            raise NotImplementedError(
                f"Subclass {self.__class__.__name__} of {cls.__name__} that defines a custom "
                "__init__ method must also define a custom .expand() method.")
        return self.__new__(type(self)) if _instance is None else _instance

    def __repr__(self) -> str:
        # a one-element parameter prints as its value, a bigger one as its size
        shown = {k: self.__dict__[k] if self.__dict__[k].numel() == 1 else self.__dict__[k].size()
                 for k in self.arg_constraints if k in self.__dict__}
        return f"{type(self).__name__}(" + ", ".join(f"{k}: {v}" for k, v in shown.items()) + ")"


class ExponentialFamily(Distribution):
    """The distributions of the exponential family (Normal, Bernoulli): their KL divergence to
    a distribution of another family has no formula (kl.py says so in PyTorch's words)."""
