"""Distance layers: `nn.CosineSimilarity` and `nn.PairwiseDistance`.

PyTorch counterparts: the `torch.nn` classes of the same names. They keep their options and
forward to `F.cosine_similarity` / `F.pairwise_distance`; their reprs print no arguments
(`CosineSimilarity()`), as PyTorch's do.
"""
from __future__ import annotations

from . import functional as F
from .module import Module


class CosineSimilarity(Module):
    """Cosine of the angle between x1 and x2 along `dim`.

    Example:
        >>> import gradstep.engine as torch
        >>> torch.nn.CosineSimilarity(dim=0)(torch.tensor([1., 0.]), torch.tensor([2., 0.]))
        tensor(1.)
    """

    def __init__(self, dim: int = 1, eps: float = 1e-8) -> None:
        super().__init__()
        self.dim = dim
        self.eps = eps

    def forward(self, x1, x2):
        return F.cosine_similarity(x1, x2, self.dim, self.eps)


class PairwiseDistance(Module):
    """p-norm of x1 - x2 + eps along the last dimension."""

    def __init__(self, p: float = 2.0, eps: float = 1e-6, keepdim: bool = False) -> None:
        super().__init__()
        self.norm = p
        self.eps = eps
        self.keepdim = keepdim

    def forward(self, x1, x2):
        return F.pairwise_distance(x1, x2, self.norm, self.eps, self.keepdim)
