"""`F.cosine_similarity` and `F.pairwise_distance`: how alike, or how far apart, two batches of
vectors are.

PyTorch counterparts: `torch.nn.functional.cosine_similarity` and `pairwise_distance`. Both are
composites in ATen, so they are composed here from the same ops in the same order, giving the
same nodes (`SumBackward1` over two `DivBackward0` by cloned `LinalgVectorNormBackward0`; a
`NormBackward1` over `AddBackward1` over `SubBackward0`). Re-exported by `engine.nn.functional`.
"""
from __future__ import annotations

import numpy as np

from .. import messages
from ..dtypes import promote_types
from ..grad_mode import no_grad
from ..ops import arithmetic as _ar
from ..ops import reduction as _red
from ..ops import vectors as _vec
from ..tensor import Tensor


def _expand_outplace(x1: Tensor, x2: Tensor) -> tuple:
    """Both expanded to their common shape when the shapes differ (ATen's expand_outplace,
    which expands the one that already has it too); as they are otherwise."""
    a, b = x1._data.shape, x2._data.shape
    if a == b:
        return x1, x2
    problem = messages.size_mismatch(a, b)
    if problem:
        raise RuntimeError(problem)
    shape = np.broadcast_shapes(a, b)
    return x1.expand(shape), x2.expand(shape)


def cosine_similarity(x1: Tensor, x2: Tensor, dim: int = 1, eps: float = 1e-8) -> Tensor:
    """<x1, x2> / (max(||x1||, eps) * max(||x2||, eps)) along `dim`, broadcasting.

    Each input is divided by its own 2-norm first (PyTorch's order, which keeps the result in
    [-1, 1]); the norms are clamped to `eps` without recording the clamp, so the gradient
    flows through them as if unclamped, as in PyTorch.

    Example:
        >>> import gradstep.engine as torch
        >>> y = cosine_similarity(torch.tensor([[1., 0.]]), torch.tensor([[1., 1.]]))
        >>> round(y.item(), 4)
        0.7071
    """
    common = promote_types(x1.dtype, x2.dtype)
    if not common.is_floating_point:
        raise RuntimeError(f"expected common dtype to be floating point, yet common dtype is "
                           f"{common.legacy[:-6]}")
    x1 = x1 if x1.dtype.is_floating_point else x1.to(common)
    x2 = x2 if x2.dtype.is_floating_point else x2.to(common)
    x1, x2 = _expand_outplace(x1, x2)
    d = _red.dims_of(dim, x1.ndim)
    n1 = _red.norm(x1, 2, d, True).clone()
    n2 = _red.norm(x2, 2, d, True).clone()
    with no_grad():
        n1.clamp_min_(eps)
        n2.clamp_min_(eps)
    return ((x1 / n1) * (x2 / n2)).sum(dim)


def pairwise_distance(x1: Tensor, x2: Tensor, p: float = 2.0, eps: float = 1e-6,
                      keepdim: bool = False) -> Tensor:
    """||x1 - x2 + eps||_p along the last dimension, broadcasting (`NormBackward1`).

    Example:
        >>> import gradstep.engine as torch
        >>> pairwise_distance(torch.tensor([[3., 4.]]), torch.tensor([[0., 0.]]), eps=0).tolist()
        [5.0]
    """
    innermost = max(x1.ndim, x2.ndim) - 1
    diff = _ar.AddScalar.apply(x1 - x2, eps)       # ATen's add.Scalar (AddBackward1)
    d = (innermost,) if diff.ndim else None
    return _vec.NormDim.apply(diff, p, d, keepdim)
