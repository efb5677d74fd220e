"""`torch.linalg.norm` and `torch.linalg.matrix_norm`: PyTorch's choice between a vector and a
matrix norm, built from existing ops as PyTorch builds them.

The Frobenius norm is a vector 2-norm over the two matrix dims (`LinalgVectorNormBackward0`);
the 1 and inf norms are the largest column or row sum of |A|: a vector 1-norm over one dim,
then `amax` over the other (`AmaxBackward0`; -1 and -inf take `amin`). The nuclear and spectral
norms need singular values, which gradstep does not compute: they raise, saying so.
"""
from __future__ import annotations

from ..tensor import Tensor
from ._dims import dim_of
from .reduction import vector_norm

_INF = float("inf")
_NEEDS_SVD = ("gradstep does not compute singular values, so linalg.matrix_norm with ord={} "
              "is not supported")


def _matrix_dims(A: Tensor, dim) -> tuple:
    if A.ndim < 2:
        raise RuntimeError("linalg.matrix_norm: The input tensor A must have at least 2 "
                           "dimensions.")
    if not isinstance(dim, (tuple, list)) or len(dim) != 2:
        shown = list(dim) if isinstance(dim, (tuple, list)) else dim
        raise RuntimeError(f"linalg.matrix_norm: dim must be a 2-tuple. Got {shown}")
    d0, d1 = (int(dim_of(d, A.ndim)) for d in dim)     # wrapped, in the order given
    if d0 == d1:
        raise RuntimeError(f"linalg.matrix_norm: dims must be different. Got ({d0}, {d1})")
    return d0, d1


def matrix_norm(A: Tensor, ord="fro", dim=(-2, -1), keepdim: bool = False) -> Tensor:
    """The ord matrix norm of A over the two dims `dim` ('fro', 1, -1, inf, -inf).

    Example:
        >>> import gradstep.engine as torch
        >>> torch.linalg.matrix_norm(torch.tensor([[1., -2.], [3., 4.]]), 1)
        tensor(6.)
    """
    d0, d1 = _matrix_dims(A, dim)
    if ord == "fro":
        return vector_norm(A, 2, (d0, d1), keepdim)
    if ord in ("nuc", 2, -2):
        raise NotImplementedError(_NEEDS_SVD.format(ord))
    if isinstance(ord, str) or ord not in (1, -1, _INF, -_INF):
        raise RuntimeError(f"linalg.matrix_norm: Order {ord} not supported.")
    if abs(ord) == _INF:        # the inf norm is the 1 norm of the transpose
        d0, d1 = d1, d0
    if not keepdim and d0 < d1:     # the first reduction removes a dim before d1
        d1 -= 1
    sums = vector_norm(A, 1.0, (d0,), keepdim)
    return sums.amax(d1, keepdim) if ord > 0 else sums.amin(d1, keepdim)


def norm(A: Tensor, ord=None, dim=None, keepdim: bool = False) -> Tensor:
    """`torch.linalg.norm`: a vector norm, or a matrix norm when ord is a matrix order and A
    (or `dim`) is two-dimensional.

    Example:
        >>> import gradstep.engine as torch
        >>> torch.linalg.norm(torch.tensor([[3., 0.], [0., 4.]]))
        tensor(5.)
    """
    if dim is not None:
        dims = (dim,) if isinstance(dim, int) else tuple(dim)
        if len(dims) not in (1, 2):
            raise RuntimeError("linalg.norm: If dim is specified, it must be of length 1 or 2. "
                               f"Got {list(dims)}")
    if ord is None:
        return vector_norm(A, 2.0, dim, keepdim)
    if dim is None:
        if A.ndim not in (1, 2):
            raise RuntimeError("linalg.norm: If dim is not specified but ord is, the input must "
                               f"be 1D or 2D. Got {A.ndim}D.")
        dims = tuple(range(A.ndim))
    if isinstance(ord, str) or len(dims) == 2:
        return matrix_norm(A, ord, (-2, -1) if dim is None else dim, keepdim)
    return vector_norm(A, ord, dim, keepdim)


__all__ = ["matrix_norm", "norm"]
