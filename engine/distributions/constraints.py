"""The constraints a distribution's parameters and samples must satisfy, and their check
(`torch.distributions.constraints`): `check(value)` gives a bool tensor, and the repr is
PyTorch's, as the validation errors print it (`GreaterThan(lower_bound=0.0)`)."""
from __future__ import annotations

__all__ = ["Constraint", "boolean", "dependent_property", "greater_than", "greater_than_eq",
           "independent", "integer_interval", "nonnegative",
           "interval", "less_than", "positive", "real", "real_vector", "simplex",
           "unit_interval", "is_dependent"]


class Constraint:
    """A region of values; `is_discrete` for integer-valued supports, `event_dim` for the
    rightmost dimensions one event spans."""

    is_discrete = False
    event_dim = 0

    def check(self, value):
        raise NotImplementedError

    def __repr__(self) -> str:
        return type(self).__name__[1:] + "()"


class _Real(Constraint):
    def check(self, value):
        return value == value       # false for nan only


class _Boolean(Constraint):
    is_discrete = True

    def check(self, value):
        return (value == 0) | (value == 1)


class _IntegerInterval(Constraint):
    is_discrete = True

    def __init__(self, lower_bound, upper_bound):
        self.lower_bound, self.upper_bound = lower_bound, upper_bound

    def check(self, value):
        return (value % 1 == 0) & (self.lower_bound <= value) & (value <= self.upper_bound)

    def __repr__(self) -> str:
        return f"IntegerInterval(lower_bound={self.lower_bound}, upper_bound={self.upper_bound})"


class _GreaterThan(Constraint):
    def __init__(self, lower_bound):
        self.lower_bound = lower_bound

    def check(self, value):
        return self.lower_bound < value

    def __repr__(self) -> str:
        return f"GreaterThan(lower_bound={self.lower_bound})"


class _GreaterThanEq(Constraint):
    def __init__(self, lower_bound):
        self.lower_bound = lower_bound

    def check(self, value):
        return self.lower_bound <= value

    def __repr__(self) -> str:
        return f"GreaterThanEq(lower_bound={self.lower_bound})"


class _LessThan(Constraint):
    def __init__(self, upper_bound):
        self.upper_bound = upper_bound

    def check(self, value):
        return value < self.upper_bound

    def __repr__(self) -> str:
        return f"LessThan(upper_bound={self.upper_bound})"


class _Interval(Constraint):
    def __init__(self, lower_bound, upper_bound):
        self.lower_bound, self.upper_bound = lower_bound, upper_bound

    def check(self, value):
        return (self.lower_bound <= value) & (value <= self.upper_bound)

    def __repr__(self) -> str:
        return f"Interval(lower_bound={self.lower_bound}, upper_bound={self.upper_bound})"


class _Simplex(Constraint):
    event_dim = 1

    def check(self, value):
        return (value >= 0).all(dim=-1) & ((value.sum(-1) - 1).abs() < 1e-6)


class _IndependentConstraint(Constraint):
    """A constraint whose rightmost `reinterpreted_batch_ndims` dimensions are one event."""

    def __init__(self, base_constraint: Constraint, reinterpreted_batch_ndims: int):
        self.base_constraint = base_constraint
        self.reinterpreted_batch_ndims = reinterpreted_batch_ndims

    @property
    def is_discrete(self) -> bool:     # type: ignore[override]
        return self.base_constraint.is_discrete

    @property
    def event_dim(self) -> int:       # type: ignore[override]
        return self.base_constraint.event_dim + self.reinterpreted_batch_ndims

    def check(self, value):
        result = self.base_constraint.check(value)
        n = self.reinterpreted_batch_ndims
        if result.dim() < n:
            raise ValueError(f"Expected value.dim() >= {self.event_dim} but got {value.dim()}")
        return result.reshape(result.shape[:result.dim() - n] + (-1,)).all(-1)

    def __repr__(self) -> str:
        return f"IndependentConstraint({self.base_constraint!r}, {self.reinterpreted_batch_ndims})"


class dependent_property(property):
    """A constraint that depends on the distribution's parameters (Categorical's support):
    a property of the instance, and a marker for validation to skip on the class."""

    def __init__(self, fn=None, *, is_discrete: bool = False, event_dim: int = 0):
        super().__init__(fn)
        self.is_discrete, self.event_dim = is_discrete, event_dim

    def __call__(self, fn):      # used as @dependent_property(is_discrete=..., event_dim=...)
        return dependent_property(fn, is_discrete=self.is_discrete, event_dim=self.event_dim)


def is_dependent(constraint) -> bool:
    return isinstance(constraint, dependent_property)


real = _Real()
boolean = _Boolean()
positive = _GreaterThan(0.0)
nonnegative = _GreaterThanEq(0.0)
unit_interval = _Interval(0.0, 1.0)
simplex = _Simplex()
real_vector = _IndependentConstraint(real, 1)
integer_interval = _IntegerInterval
independent = _IndependentConstraint
greater_than = _GreaterThan
greater_than_eq = _GreaterThanEq
less_than = _LessThan
interval = _Interval
