"""The gradient of `torch.prod`, safe where the input holds zeros (PyTorch's prod_backward).

grad * result / self is the derivative only while no element is zero; with zeros PyTorch
multiplies the exclusive cumulative products from both ends instead, and with several zeros
outside grad mode it answers zeros at once. Written in engine ops, so create_graph works.
"""
from __future__ import annotations

from ..grad_mode import state as _grad_state
from ..tensor import Tensor
from ..factories import ones
from ..factories import zeros_like
from .join import cat


def _safe_zeros(grad: Tensor, x: Tensor, dim: int) -> Tensor:
    """grad times the product of every other element along dim, by cumulative products."""
    from .cumulative import cumprod
    n = x.shape[dim]
    if x.numel() == 0:
        return grad.expand_as(x)
    size = list(x.shape)
    size[dim] = 1
    one = ones(tuple(size), dtype=grad.dtype)
    before = cumprod(cat([one, x.narrow(dim, 0, n - 1)], dim), dim)
    after = cumprod(cat([one, x.narrow(dim, 1, n - 1).flip(dim)], dim), dim).flip(dim)
    return grad * (before * after)


def prod_backward(grad: Tensor, x: Tensor, result: Tensor) -> Tensor:
    """d prod(x) over all elements."""
    if x.ndim == 0:
        return grad
    zeros_at = (x._data == 0).sum()
    if zeros_at == 0:
        return grad * (result / x)       # PyTorch's order of roundings
    if not _grad_state.enabled and zeros_at > 1:
        return zeros_like(x)
    return _safe_zeros(grad, x.contiguous().view(-1), 0).view_as(x)


def prod_dim_backward(grad: Tensor, x: Tensor, result: Tensor, dim: int,
                      keepdim: bool) -> Tensor:
    """d prod(x, dim) along dim."""
    if x.ndim == 0:
        return grad
    if not keepdim:
        grad, result = grad.unsqueeze(dim), result.unsqueeze(dim)
    if not (x._data == 0).any():
        return grad * (result / x)
    return _safe_zeros(grad, x, dim)
