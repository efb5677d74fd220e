"""Parts of matrices: triangles and diagonals (`torch.tril`, `torch.triu`, `torch.diag`,
`torch.diagonal`, `torch.trace`).

PyTorch records `torch.diag` of a vector as DiagEmbedBackward0 and of a matrix as a copy,
DiagonalBackward0_copy; `Tensor.diagonal` is a view (DiagonalBackward0). The gradient of a
diagonal is PyTorch's `diagonal_backward`: zeros with the gradient written on the diagonal.
"""
from __future__ import annotations

import numpy as np

from ..tensor import Tensor, new_tensor
from ._op import Op, as_array
from ._dims import dim_of


def _diagonal_view(a: np.ndarray, offset: int, dim1: int, dim2: int) -> np.ndarray:
    """A writable numpy view of a's diagonal (np.diagonal's is read-only): the other dims in
    order, then the diagonal, whose stride is the sum of the two dims' strides."""
    start = [slice(None)] * a.ndim
    start[dim1] = slice(max(-offset, 0), None)
    start[dim2] = slice(max(offset, 0), None)
    corner = a[tuple(start)]
    n = max(0, min(corner.shape[dim1], corner.shape[dim2]))
    keep = [d for d in range(a.ndim) if d not in (dim1, dim2)]
    shape = tuple(a.shape[d] for d in keep) + (n,)
    strides = tuple(a.strides[d] for d in keep) + (a.strides[dim1] + a.strides[dim2],)
    return np.lib.stride_tricks.as_strided(corner, shape, strides)


class Tril(Op):
    """out = self with the entries above the diagonal-th diagonal set to 0"""
    grad_fn_name, name, saves = "TrilBackward0", "tril", ("diagonal",)
    rule = "grad.tril(diagonal)"

    def forward(self, diagonal=0):
        return np.tril(self, diagonal)

    def backward(ctx, grad):
        return (Tril.apply(grad, ctx.diagonal),)

    @classmethod
    def sample_inputs(cls, make, shape):
        yield make((3, 3)), 0
        yield make((2, 2, 3)), -1


class Triu(Op):
    """out = self with the entries below the diagonal-th diagonal set to 0"""
    grad_fn_name, name, saves = "TriuBackward0", "triu", ("diagonal",)
    rule = "grad.triu(diagonal)"

    def forward(self, diagonal=0):
        return np.triu(self, diagonal)

    def backward(ctx, grad):
        return (Triu.apply(grad, ctx.diagonal),)

    sample_inputs = Tril.sample_inputs


class DiagonalBackward(Op):
    """out = zeros of input_sizes with grad_output on the offset diagonal of (dim1, dim2)"""
    grad_fn_name, name = "DiagonalBackwardBackward0", "diagonal_backward"
    saves = ("dim1", "dim2", "offset")
    rule = "grad.diagonal(offset, dim1, dim2)"

    def forward(grad_output, input_sizes, offset, dim1, dim2):
        out = np.zeros(input_sizes, dtype=grad_output.dtype)
        _diagonal_view(out, offset, dim1, dim2)[...] = grad_output
        return out

    def backward(ctx, grad):
        return (Diagonal.apply(grad, ctx.offset, ctx.dim1, ctx.dim2),)

    @classmethod
    def sample_inputs(cls, make, shape):
        yield make((3,)), (3, 3), 0, 0, 1
        yield make((2, 2)), (2, 3, 3), -1, 1, 2


class Diagonal(Op):
    """out = the offset diagonal of dims dim1 and dim2, appended as the last dim (a view)"""
    grad_fn_name, name, is_view = "DiagonalBackward0", "diagonal", True
    jvp = "linear"
    saves = ("dim1", "dim2", "offset", "self_sym_sizes")
    rule = "grad written on the diagonal of zeros"

    def forward(self, offset, dim1, dim2):
        return _diagonal_view(self, offset, dim1, dim2)

    def backward(ctx, grad):
        return (DiagonalBackward.apply(grad, ctx.self_sym_sizes, ctx.offset, ctx.dim1,
                                       ctx.dim2),)

    @classmethod
    def sample_inputs(cls, make, shape):
        yield make((3, 3)), 0, 0, 1
        yield make((2, 3, 4)), 1, 2, 1


class DiagonalCopy(Diagonal):
    """out = a copy of the offset diagonal (what `torch.diag` of a matrix records)"""
    grad_fn_name, name, is_view = "DiagonalBackward0_copy", "diag", False

    def forward(self, offset, dim1, dim2):
        return _diagonal_view(self, offset, dim1, dim2).copy()


class DiagEmbed(Op):
    """out = a matrix with self on its offset diagonal, zeros elsewhere"""
    grad_fn_name, name = "DiagEmbedBackward0", "diag"
    saves = ("dim1", "dim2", "offset")
    rule = "grad.diagonal(offset, dim1, dim2)"

    def forward(self, offset, dim1=-2, dim2=-1):
        n = self.shape[-1] + abs(offset)
        out = np.zeros(self.shape[:-1] + (n, n), dtype=self.dtype)
        _diagonal_view(out, offset, out.ndim - 2, out.ndim - 1)[...] = self
        return out

    def backward(ctx, grad):
        nd = grad.ndim
        return (Diagonal.apply(grad, ctx.offset, ctx.dim1 % nd, ctx.dim2 % nd),)

    @classmethod
    def sample_inputs(cls, make, shape):
        yield make((3,)), 0
        yield make((2,)), -1


class Trace(Op):
    """out = sum of the main diagonal of a matrix"""
    grad_fn_name, name, saves = "TraceBackward0", "trace", ("self_sym_sizes",)
    rule = "grad on the diagonal, 0 elsewhere"

    def forward(self):
        d = np.diagonal(self)
        if self.dtype.kind in "biu":
            return as_array(d.sum(dtype=np.int64))
        # PyTorch's CPU kernel adds the diagonal one by one, float32 in double
        acc = np.float64 if self.dtype == np.float32 else self.dtype
        total = np.cumsum(d, dtype=acc)[-1] if d.size else 0
        return np.asarray(total, dtype=self.dtype)

    def backward(ctx, grad):
        from .elementwise import where
        mask = new_tensor(np.eye(*ctx.self_sym_sizes, dtype=bool))
        return (where(mask, grad, new_tensor(np.zeros((), grad._data.dtype))),)

    @classmethod
    def sample_inputs(cls, make, shape):
        yield (make((3, 3)),)
        yield (make((2, 3)),)


# ---- public entry points ------------------------------------------------------------------
def _matrix(name: str, input: Tensor) -> None:
    if input.ndim < 2:
        raise RuntimeError(f"{name}: input tensor must have at least 2 dimensions")


def tril(input, diagonal: int = 0) -> Tensor:
    """The lower triangle of the last two dims, the rest 0 (`torch.tril`).

    Example:
        >>> import gradstep.engine as torch
        >>> torch.tril(torch.ones(2, 2)).tolist()
        [[1.0, 0.0], [1.0, 1.0]]
    """
    _matrix("tril", input)
    return Tril.apply(input, diagonal)


def triu(input, diagonal: int = 0) -> Tensor:
    """The upper triangle of the last two dims, the rest 0 (`torch.triu`)."""
    _matrix("triu", input)
    return Triu.apply(input, diagonal)


def diagonal(input, offset: int = 0, dim1: int = 0, dim2: int = 1) -> Tensor:
    """A view of the offset diagonal of dims dim1 and dim2 (`torch.diagonal`)."""
    d1, d2 = dim_of(dim1, input.ndim), dim_of(dim2, input.ndim)
    if d1 == d2:
        raise RuntimeError(f"diagonal dimensions cannot be identical {dim1}, {dim2}")
    return Diagonal.apply(input, offset, d1, d2)


def diag(input, diagonal: int = 0) -> Tensor:
    """A vector's diagonal matrix, or a matrix's diagonal as a vector (`torch.diag`)."""
    if input.ndim == 1:
        return DiagEmbed.apply(input, diagonal, -2, -1)
    if input.ndim == 2:
        return DiagonalCopy.apply(input, diagonal, 0, 1)
    raise RuntimeError(f"diag(): Supports 1D or 2D tensors. Got {input.ndim}D")


def trace(input) -> Tensor:
    """Sum of a matrix's main diagonal (`torch.trace`)."""
    if input.ndim != 2:
        raise RuntimeError(f"trace: expected a matrix, but got tensor with dim {input.ndim}")
    return Trace.apply(input)
