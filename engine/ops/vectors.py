"""Products and distances of vectors: `torch.cross` / `torch.linalg.cross`, `torch.dist`, the
`at::norm(self, p, dim)` that `F.pairwise_distance` records (`NormBackward1`), and
`torch.cdist` (CdistBackward0: every pairwise p-norm distance between two sets of rows), and
`torch.kron` (composed as PyTorch composes it: UnsafeViewBackward0 over MulBackward0 over two
UnsafeViewBackward0).

`torch.outer` (a reshape times a vector, as PyTorch composes it) is in `linalg.py`.
"""
from __future__ import annotations

import numpy as np

from .. import messages
from ..tensor import Tensor
from . import _samples
from ._broadcast import sum_to
from ._exact import F32, SMALL, fma32
from ._op import Op
from ._dims import dim_of
from .reduction import Norm, norm_backward

_CROSS_DIM_WARNING = (
    "Using torch.cross without specifying the dim arg is deprecated.\nPlease either pass the "
    "dim explicitly or simply use torch.linalg.cross.\nThe default value of dim will change "
    "to agree with that of linalg.cross in a future release.")


def _cross32(a: np.ndarray, b: np.ndarray, dim: int) -> np.ndarray:
    """a x b with PyTorch's float32 roundings: each component a1 * b2 - a2 * b1 is one fused
    multiply-add of a1 * b2 onto the rounded -(a2 * b1)."""
    a, b = np.broadcast_arrays(np.moveaxis(a, dim, -1), np.moveaxis(b, dim, -1))
    out = np.empty(a.shape, dtype=F32)
    for k, (i, j) in enumerate(((1, 2), (2, 0), (0, 1))):
        out[..., k] = fma32(a[..., i], b[..., j], -(a[..., j] * b[..., i]))
    return np.moveaxis(out, -1, dim)


class LinalgCross(Op):
    """out = self x other, the cross product of 3-vectors along dim"""
    grad_fn_name, name, n_inputs = "LinalgCrossBackward0", "cross", 2
    saves = ("dim", "other", "self")
    rule = "other x grad, grad x self"

    def forward(self, other, dim):
        if self.dtype == other.dtype == F32 and max(self.size, other.size) <= SMALL:
            return _cross32(self, other, dim)
        return np.asarray(np.cross(self, other, axis=dim))

    def backward(ctx, grad):
        a, b = ctx.needs_input_grad
        x, y, dim = ctx.self, ctx.other, ctx.dim
        return (sum_to(LinalgCross.apply(y, grad, dim), x._data.shape) if a else None,
                sum_to(LinalgCross.apply(grad, x, dim), y._data.shape) if b else None)

    @classmethod
    def sample_inputs(cls, make, shape):
        yield make((3,)), make((3,)), 0
        yield make((2, 3)), make((3,)), -1


class Dist(Op):
    """out = p-norm of (self - other)"""
    grad_fn_name, name, n_inputs = "DistBackward0", "dist", 2
    saves = ("other", "p", "result", "self")
    rule = "norm's backward at self - other; its negative for other"

    def forward(self, other, p=2):
        return Norm.forward(np.asarray(self - other), p, None, False)

    def backward(ctx, grad):
        a, b = ctx.needs_input_grad
        x, y, p, r = ctx.self, ctx.other, ctx.p, ctx.result
        return (sum_to(norm_backward(grad, x - y, p, r), x._data.shape) if a else None,
                sum_to(-norm_backward(grad, x - y, p, r), y._data.shape) if b else None)

    @classmethod
    def sample_inputs(cls, make, shape):
        for x, y in _samples.binary_apart(make, shape):
            yield x, y, 2
            yield x, y, 3


class Cdist(Op):
    """out[..., i, j] = p-norm of (x1[..., i, :] - x2[..., j, :])"""
    grad_fn_name, name, n_inputs = "CdistBackward0", "cdist", 2
    saves = ("p", "result", "x1", "x2")
    rule = "norm's backward at each row difference, summed over the other set's rows"

    def forward(x1, x2, p):
        diff = np.expand_dims(x1, -2) - np.expand_dims(x2, -3)
        return NormDim.forward(diff, p, (-1,), False)

    def backward(ctx, grad):
        a, b = ctx.needs_input_grad
        p, r = ctx.p, ctx.result
        # x2's gradient is x1's with the roles swapped, as PyTorch computes it (signed zeros)
        return (_cdist_grad(grad, ctx.x1, ctx.x2, p, r) if a else None,
                _cdist_grad(grad.mT, ctx.x2, ctx.x1, p, r.mT) if b else None)

    @classmethod
    def sample_inputs(cls, make, shape):
        if len(shape) == 2:     # rows on interleaved grids: no distance is 0, no kink
            x, y = make(shape), make((shape[0] + 1, shape[1]))
            x._data[...] = np.round(x._data, 1)
            y._data[...] = np.round(y._data, 1) + 0.05
            yield x, y, 2.0
            yield x, y, 1.0


def _cdist_grad(grad, x1, x2, p, result):
    """The gradient of cdist(x1, x2) to x1: norm's backward at each row difference, summed
    over x2's rows."""
    diff = x1.unsqueeze(-2) - x2.unsqueeze(-3)
    if p == float("inf"):   # unlike norm's, every coordinate reaching the max gets it all
        each = diff.sgn() * (diff.abs() == result.unsqueeze(-1)) * grad.unsqueeze(-1)
    else:
        each = norm_backward(grad, diff, p, result, (-1,), False)
    return each.sum(-2)


class NormDim(Op):
    """out = (sum |self|**p) ** (1/p) over dim; p = 0 counts the nonzero entries"""
    grad_fn_name, name = "NormBackward1", "norm"
    saves = ("dim", "keepdim", "p", "result", "self")
    rule = "norm's backward; no gradient for p = 0"

    def forward(self, p, dim, keepdim):
        if p == 0:
            return np.asarray(np.count_nonzero(self, axis=dim, keepdims=keepdim), self.dtype)
        return Norm.forward(self, p, dim, keepdim)

    def backward(ctx, grad):
        if ctx.p == 0:      # PyTorch's norm_backward gives no gradient at all
            return (None,)
        return (norm_backward(grad, ctx.self, ctx.p, ctx.result, ctx.dim, ctx.keepdim),)

    @classmethod
    def sample_inputs(cls, make, shape):
        if shape:
            yield make(shape, 0.5, 2.0), 2, (len(shape) - 1,), False
            yield make(shape, 0.5, 2.0), 1.5, (0,), True


def _cross_dim(input: Tensor, other: Tensor, dim: int) -> int:
    a, b = input._data.shape, other._data.shape
    if len(a) != len(b):
        raise RuntimeError("linalg.cross: inputs must have the same number of dimensions.")
    d = dim_of(dim, len(a))
    if a[d] != 3 or b[d] != 3:
        raise RuntimeError(f"linalg.cross: inputs dimension {dim} must have length 3. Got "
                           f"{a[d]} and {b[d]}")
    return d


def linalg_cross(input, other, *, dim=-1) -> Tensor:
    """Cross product of 3-vectors along `dim` (`torch.linalg.cross`), broadcasting."""
    return LinalgCross.apply(input, other, _cross_dim(input, other, dim))


def cross(input, other, dim=None) -> Tensor:
    """`torch.cross`: without `dim`, the first dim of size 3 (deprecated, with a warning).

    Example:
        >>> import gradstep.engine as torch
        >>> torch.cross(torch.tensor([1., 0., 0.]), torch.tensor([0., 1., 0.]), dim=0).tolist()
        [0.0, 0.0, 1.0]
    """
    if dim is None:
        messages.warn(_CROSS_DIM_WARNING)
        shape = np.broadcast_shapes(input._data.shape, other._data.shape)
        dim = next((d for d, n in enumerate(shape) if n == 3), -1)
    return LinalgCross.apply(input, other, _cross_dim(input, other, dim))


def dist(input, other, p=2) -> Tensor:
    """The p-norm of input - other (`torch.dist`), broadcasting."""
    if input._data.dtype.kind not in "fc":
        raise RuntimeError("norm(): input dtype should be either floating point or complex. "
                           f"Got {input.dtype.legacy.replace('Tensor', '')} instead.")
    return Dist.apply(input, other, p)


def cdist(x1: Tensor, x2: Tensor, p: float = 2.0,
          compute_mode: str = "use_mm_for_euclid_dist_if_necessary") -> Tensor:
    """The p-norm distance between each row of x1 (..., P, M) and each row of x2 (..., R, M),
    shaped (..., P, R).

    Example:
        >>> import gradstep.engine as torch
        >>> torch.cdist(torch.tensor([[0.0, 0.0]]), torch.tensor([[3.0, 4.0], [0.0, 1.0]]))
        tensor([[5., 1.]])
    """
    for name, t in (("X1", x1), ("X2", x2)):
        if t.ndim < 2:
            raise RuntimeError(f"cdist only supports at least 2D tensors, {name} got: "
                               f"{t.ndim}D")
    if x1.shape[-1] != x2.shape[-1]:
        raise RuntimeError(f"X1 and X2 must have the same number of columns. X1: "
                           f"{x1.shape[-1]} X2: {x2.shape[-1]}")
    if p < 0:
        raise RuntimeError("cdist only supports non-negative p values")
    return Cdist.apply(x1, x2, float(p))


def kron(input: Tensor, other: Tensor) -> Tensor:
    """The Kronecker product: each element of input times the whole of other, in blocks
    (`torch.kron`); the lower-rank tensor gets leading dims of size 1.

    Example:
        >>> import gradstep.engine as torch
        >>> torch.kron(torch.tensor([1.0, 2.0]), torch.tensor([1.0, -1.0]))
        tensor([ 1., -1.,  2., -2.])
    """
    from ..foreign_operands import both_tensors
    from .shape import UnsafeView
    both_tensors("kron", input, "other", other, Tensor)
    n = max(input.ndim, other.ndim)
    a = (1,) * (n - input.ndim) + tuple(input.shape)
    b = (1,) * (n - other.ndim) + tuple(other.shape)
    # input's dims interleaved with 1s, other's with 1s before, so the product is in blocks
    a_view = UnsafeView.apply(input, tuple(x for s in a for x in (s, 1)))
    b_view = UnsafeView.apply(other, tuple(x for s in b for x in (1, s)))
    return UnsafeView.apply(a_view * b_view, tuple(p * q for p, q in zip(a, b)))
