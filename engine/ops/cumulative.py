"""Running products and extremes along a dimension: `torch.cumprod`, `torch.cummax` and
`torch.cummin` (`torch.cumsum` is in reduction.py), and `torch.diff`, cumsum's inverse (composed
of narrow and sub as PyTorch composes it: SubBackward0 over two SliceBackward0).

The derivative of out[j] = x[0] * ... * x[j] with respect to x[k] is the product without
x[k], so where the input holds no zero it is out[j] / x[k]; zeros need the product itself.
"""
from __future__ import annotations

import numpy as np

from ..tensor import Tensor, new_tensor
from ._dims import dim_of
from ._op import Op
from .reduction import return_type
from .selection import ScatterAdd, _Picked


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
        x, dim = ctx.self, int(ctx.dim)    # wrapped, as PyTorch's cumprod_backward
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


def _running_extreme(a: np.ndarray, dim: int, better) -> tuple:
    """(values, indices) of the running max (better=greater_equal) or min along dim.

    PyTorch's kernel: x takes over when it ties or beats the best so far, so a tie moves the
    index to the later position (and -0.0 after 0.0 shows -0.0); a nan takes over, and from
    then on only another nan does."""
    if a.ndim == 0:
        return a.copy(), np.zeros((), np.int64)
    moved = np.moveaxis(a, dim, -1)
    idx = np.zeros(moved.shape, np.int64)
    if moved.shape[-1]:
        best, at = moved[..., 0], np.zeros(moved.shape[:-1], np.int64)
        for i in range(moved.shape[-1]):
            x = moved[..., i]
            take = (x != x) | ((best == best) & better(x, best))    # (x != x): x is nan
            best, at = np.where(take, x, best), np.where(take, i, at)
            idx[..., i] = at
    values = np.take_along_axis(moved, idx, -1)
    return np.moveaxis(values, -1, dim), np.moveaxis(idx, -1, dim)


class Cummax(_Picked):
    """values[i], indices[i] = the largest of self[..i] along dim and where it is"""
    grad_fn_name, name, returns = "CummaxBackward0", "cummax", return_type("cummax")
    saves = ("dim", "indices", "self")
    rule = "grad added (scattered) at the index each running max came from"

    def forward(self, dim):
        values, idx = _running_extreme(self, dim, np.greater_equal)
        return values, (new_tensor(idx),)

    def backward(ctx, grad):
        x = ctx.self      # PyTorch's cummaxmin_backward: zeros, grad scatter-added at indices
        if x.ndim == 0 or x._data.size == 0:
            return (grad,)
        return (ScatterAdd.apply(grad, x._data.shape, ctx.dim, ctx.indices),)

    @classmethod
    def sample_inputs(cls, make, shape):
        if shape:
            yield make(shape), len(shape) - 1


class Cummin(Cummax):
    """values[i], indices[i] = the smallest of self[..i] along dim and where it is"""
    grad_fn_name, name, returns = "CumminBackward0", "cummin", return_type("cummin")
    rule = "grad added (scattered) at the index each running min came from"

    def forward(self, dim):
        values, idx = _running_extreme(self, dim, np.less_equal)
        return values, (new_tensor(idx),)


def cummax(input, dim) -> tuple:
    """Running maximum along `dim` and its indices (`torch.cummax`); ties take the later index.

    Example:
        >>> import gradstep.engine as torch
        >>> torch.cummax(torch.tensor([1., 3., 2., 3.]), 0).indices.tolist()
        [0, 1, 1, 3]
    """
    return Cummax.apply(input, dim_of(dim, input.ndim))


def cummin(input, dim) -> tuple:
    """Running minimum along `dim` and its indices (`torch.cummin`); ties take the later index.

    Example:
        >>> import gradstep.engine as torch
        >>> torch.cummin(torch.tensor([2., 1., 3., 1.]), 0).indices.tolist()
        [0, 1, 1, 3]
    """
    return Cummin.apply(input, dim_of(dim, input.ndim))


def cumprod(input, dim, *, dtype=None) -> Tensor:
    """Running product along `dim` (`torch.cumprod`).

    Example:
        >>> import gradstep.engine as torch
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


def _diff_edge(t, input: Tensor, d: int, param: str) -> Tensor:
    """prepend / append checked as PyTorch's diff checks them (a Tensor of input's rank and
    sizes, except along the differencing dim)."""
    if not isinstance(t, Tensor):
        from .. import messages
        raise TypeError(f"diff(): argument '{param}' must be Tensor, not "
                        f"{messages.parser_type_name(t)}")
    if t.ndim != input.ndim:
        raise RuntimeError("diff expects prepend or append to be the same dimension as input")
    for i, (m, n) in enumerate(zip(input.shape, t.shape)):
        if i != d and m != n:
            raise RuntimeError(
                "diff expects the shape of tensor to prepend or append to match that of input "
                f"except along the differencing dimension; input.size({i}) = {m}, but got "
                f"tensor.size({i}) = {n}")
    return t


def diff(input: Tensor, n: int = 1, dim: int = -1, prepend=None, append=None) -> Tensor:
    """The n-th forward difference along `dim`, out[i] = x[i + 1] - x[i] applied n times
    (`torch.diff`); `prepend` / `append` are concatenated to input along dim first, and bool
    tensors give logical_xor.

    Example:
        >>> import gradstep.engine as torch
        >>> torch.diff(torch.tensor([1.0, 4.0, 9.0, 16.0]))
        tensor([3., 5., 7.])
    """
    if input.ndim == 0:
        raise RuntimeError("diff expects input to be at least one-dimensional")
    if n < 0:
        raise RuntimeError(f"order must be non-negative but got {n}")
    d = dim_of(dim, input.ndim)
    if prepend is not None or append is not None:
        from .join import cat
        parts = [_diff_edge(prepend, input, d, "prepend")] if prepend is not None else []
        parts.append(input)
        if append is not None:
            parts.append(_diff_edge(append, input, d, "append"))
        input = cat(parts, d)
    if n == 0:      # PyTorch copies into zeros_like(input): CopyBackwards
        from ..factories import zeros_like
        return zeros_like(input).copy_(input)
    size = input.shape[d]
    out, length = input, size - 1
    for _ in range(min(n, size)):
        hi, lo = out.narrow(d, 1, length), out.narrow(d, 0, length)
        out = (hi != lo) if out._data.dtype.kind == "b" else hi - lo   # bool: logical_xor
        length -= 1
    return out
