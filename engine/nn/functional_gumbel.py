"""`F.gumbel_softmax`: a differentiable sample from a categorical distribution.

PyTorch's recipe, step by step so that the graph and the random numbers are PyTorch's: Gumbel
noise `-log(E)` with `E` drawn by `exponential_()`, added to the logits and divided by `tau`,
then a softmax along `dim`. With `hard=True` the result is the one-hot of the largest entry in
the forward pass, while its gradient is the soft sample's (`y_hard - y_soft.detach() +
y_soft`, the straight-through estimator).
"""
from __future__ import annotations

from .. import messages
from ..tensor import Tensor


def gumbel_softmax(logits: Tensor, tau: float = 1, hard: bool = False, eps: float = 1e-10,
                   dim: int = -1) -> Tensor:
    """A sample of softmax((logits + Gumbel noise) / tau) along `dim`, one-hot if `hard`.

    Example:
        >>> import gradstep.engine as torch
        >>> _ = torch.manual_seed(0)
        >>> torch.nn.functional.gumbel_softmax(torch.zeros(3), hard=True).sum()
        tensor(1.)
    """
    if eps != 1e-10:
        messages.warn("`eps` parameter is deprecated and has no effect.")
    from ..factories import empty_like, zeros_like
    gumbels = -empty_like(logits).exponential_().log()
    y_soft = ((logits + gumbels) / tau).softmax(dim)
    if not hard:
        return y_soft
    index = y_soft.max(dim, keepdim=True)[1]
    y_hard = zeros_like(logits).scatter_(dim, index, 1.0)
    return y_hard - y_soft.detach() + y_soft
