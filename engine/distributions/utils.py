"""Helpers the distributions share (`torch.distributions.utils`): parameters broadcast to one
shape, probabilities and logits turned into each other, and parameters made on demand."""
from __future__ import annotations

import numbers

from ..dtypes import get_default_dtype
from ..factories import tensor
from ..grad_mode import enable_grad
from ..nn import functional as F
from ..ops.shape import broadcast_tensors
from ..size import Size
from ..tensor import Tensor
from ..type_info import finfo

# the default sample shape (and batch and event shape): one sample, no dimensions added
EMPTY = Size()

__all__ = ["broadcast_all", "clamp_probs", "lazy_property", "logits_to_probs",
           "probs_to_logits"]


def broadcast_all(*values) -> tuple:
    """The values as tensors of one shape: numbers take the first tensor's dtype (else the
    default dtype), then all are broadcast together."""
    if not all(isinstance(v, (Tensor, numbers.Number)) for v in values):
        raise ValueError("Input arguments must all be instances of Number, torch.Tensor or "
                         "objects implementing __torch_function__.")
    if not all(isinstance(v, Tensor) for v in values):
        dtype = next((v.dtype for v in values if isinstance(v, Tensor)), get_default_dtype())
        values = tuple(v if isinstance(v, Tensor) else tensor(v, dtype=dtype) for v in values)
    return broadcast_tensors(*values)


def logits_to_probs(logits: Tensor, is_binary: bool = False) -> Tensor:
    """sigmoid(logits) for a binary variable, softmax over the last dimension otherwise."""
    return logits.sigmoid() if is_binary else F.softmax(logits, dim=-1)


def clamp_probs(probs: Tensor) -> Tensor:
    """Probabilities kept a machine epsilon inside (0, 1), so their logs stay finite."""
    eps = finfo(probs.dtype).eps
    return probs.clamp(min=eps, max=1 - eps)


def probs_to_logits(probs: Tensor, is_binary: bool = False) -> Tensor:
    """log(p) - log1p(-p) for a binary variable, log(p) otherwise (of the clamped p)."""
    clamped = clamp_probs(probs)
    if is_binary:
        return clamped.log() - (-clamped).log1p()
    return clamped.log()


class lazy_property:
    """A parameter computed from the other one when first read (Categorical's probs from its
    logits), with grad on, then kept on the instance. On the class it stays the descriptor,
    which tells validation that an absent parameter is not to be checked."""

    def __init__(self, wrapped):
        self.wrapped = wrapped
        self.__name__ = wrapped.__name__
        self.__doc__ = wrapped.__doc__

    def __get__(self, instance, owner=None):
        if instance is None:
            return self
        with enable_grad():
            value = self.wrapped(instance)
        setattr(instance, self.wrapped.__name__, value)
        return value


