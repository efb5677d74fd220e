"""Running products along a dimension: `torch.cumprod` (`torch.cumsum` is in reduction.py).

The derivative of out[j] = x[0] * ... * x[j] with respect to x[k] is the product without
x[k], so where the input holds no zero it is out[j] / x[k]; zeros need the product itself.
"""
from __future__ import annotations

import numpy as np

from ..tensor import Tensor, new_tensor
from ._dims import dim_of
from ._op import Op


def _reversed_cumsum(t: Tensor, dim: int) -> Tensor:
    return t.flip((dim,)).cumsum(dim).flip((dim,))


def _with_zeros(grad: Tensor, x: Tensor, dim: int) -> Tensor:
    """grad_in[k] = sum over j >= k of grad[j] * prod(x[i] for i <= j, i != k): the products
    of copies of x with x[k] replaced by 1 (dim moved last, copies along a new dim k)."""
    xs, gs = x.movedim(dim, -1), grad.movedim(dim, -1)
    n = xs._data.shape[-1]
    copies = xs.unsqueeze(-2).expand(xs._data.shape[:-1] + (n, n))
    eye = new_tensor(np.eye(n, dtype=bool))
    products = copies.masked_fill(eye, 1).cumprod(-1)      # [.., k, j]
    return (products * gs.unsqueeze(-2)).triu().sum(-1).movedim(-1, dim)


class Cumprod(Op):
    """out[i] = product of self[..i] along dim"""
    grad_fn_name, name = "CumprodBackward0", "cumprod"
    saves = ("dim", "result", "self")
    rule = "reverse cumulative sum of grad * result, divided by self (zeros handled apart)"

    def forward(self, dim):
        if self.dtype == np.float32:    # PyTorch's CPU kernel accumulates floats in double
            return np.cumprod(self, axis=dim, dtype=np.float64).astype(np.float32)
        return np.cumprod(self, axis=dim, dtype=np.int64 if self.dtype.kind in "biu" else None)

    def backward(ctx, grad):
        x, dim = ctx.self, ctx.dim
        if x._data.size <= 1 or (x.ndim and x._data.shape[dim] == 1):
            return (grad,)
        if not (x._data == 0).any():       # PyTorch's cumprod_backward, its simple case
            return (_reversed_cumsum(ctx.result * grad, dim) / x,)
        return (_with_zeros(grad, x, dim),)

    @classmethod
    def sample_inputs(cls, make, shape):
        if shape:
            yield make(shape, 0.5, 1.5), 0
            x = make(shape, 0.5, 1.5)
            x._data.reshape(-1)[0] = 0.0          # a zero: the second formula
            yield x, 0


def cumprod(input, dim, *, dtype=None) -> Tensor:
    """Running product along `dim` (`torch.cumprod`).

    Example:
        >>> import engine as torch
        >>> torch.cumprod(torch.tensor([1., 2., 3.]), 0).tolist()
        [1.0, 2.0, 6.0]
    """
    if dtype is not None:
        input = input.to(dtype)
    return Cumprod.apply(input, dim_of(dim, input.ndim))


def inplace_dim(input: Tensor, dim, dtype) -> int:
    """`Tensor.cumprod_`'s checks: dim normalised, and a dtype other than input's refused, as
    an in-place write cannot change it."""
    if dtype is not None and dtype.np != input._data.dtype:
        from ..messages import cpp_type
        have, want = cpp_type(input.dtype.legacy[:-6]), cpp_type(dtype.legacy[:-6])
        raise RuntimeError(f"Bad in-place call: input tensor dtype {have} and output tensor "
                           f"dtype {want} should match")
    return dim_of(dim, input.ndim)
