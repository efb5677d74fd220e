"""Matrix products: mm, mv, dot, bmm and `matmul`/`@`, dispatched by rank as PyTorch does.

PyTorch counterparts: `torch.mm`, `torch.mv`, `torch.dot`, `torch.bmm`, `torch.matmul`.
`matmul` records the same helper nodes PyTorch does (UnsqueezeBackward0 + MmBackward0 +
SqueezeBackward4 for vector @ matrix; ViewBackward0 + MmBackward0 + UnsafeViewBackward0
for batched @ matrix), so `grad_fn` chains look the same.
"""
from __future__ import annotations

from collections import namedtuple

import numpy as np

from .._names import TorchNamed
from ..foreign_operands import both_tensors
from ..messages import cpp_type
from ..tensor import Tensor, new_tensor
from . import _local_rows
from ._broadcast import records_nothing, sum_to
from ._mm_order import matmul2d, sequential, small_dot, small_mv
from ._op import Op
from .complex import conj


# PyTorch names a dtype in its matrix-product errors as the C++ type ("long int != float")
# or the legacy tensor name ("Long and Float"), depending on the check
def legacy_name(a: np.ndarray) -> str:
    from ..dtypes import of_array
    return of_array(a).legacy[:-6]      # "LongTensor" -> "Long"


def c_type(a: np.ndarray) -> str:
    return cpp_type(legacy_name(a))


def check_m1_m2(m1: np.ndarray, m2: np.ndarray) -> None:
    """mm's refusal to multiply two dtypes (also matmul's and F.linear's without a bias)."""
    if m1.dtype != m2.dtype:
        raise RuntimeError("expected m1 and m2 to have the same dtype, but got: "
                           f"{c_type(m1)} != {c_type(m2)}")


def grad_in(grad: Tensor, like) -> Tensor:
    """`grad` in the dtype of `like` (a saved input). Between nodes PyTorch casts every
    gradient to its input's dtype (its engine's validate_outputs); the matrix products, which
    refuse mixed dtypes, meet a float64 gradient from a promoted consumer (`(x @ w) * d64`)
    and take it only after that cast."""
    if like is None or grad._data.dtype == like._data.dtype:
        return grad
    return grad.to(like.dtype)


def _x(shape) -> str:
    return "x".join(str(n) for n in shape)


def mm_mat2_backward(grad: Tensor, mat1: Tensor, mat2_column_major: bool) -> Tensor:
    """mat1.T @ grad, the gradient of `mat1 @ mat2` for mat2, computed as PyTorch does.

    A column-major mat2 (a weight used as `w.t()`, as `F.linear` does) gets (grad.T @ mat1).T:
    the same sums, handed back laid out like mat2, so `w`'s gradient comes out contiguous
    and needs no reordering copy (PyTorch's `mm_mat2_backward`).
    """
    if records_nothing() and grad._data.dtype == mat1._data.dtype:
        g, x = grad._data, mat1._data     # the same products in numpy, without five dispatches
        return new_tensor(matmul2d(g.T, x).T if mat2_column_major else matmul2d(x.T, g))
    return grad.t().mm(mat1).t() if mat2_column_major else mat1.t().mm(grad)


def column_major(mat2: Tensor) -> bool:
    """Whether a matrix is laid out column by column (a weight used as `w.t()`)."""
    m = mat2._data
    return m.ndim == 2 and m.strides == (m.itemsize, m.itemsize * m.shape[0])


class Mm(Op):
    """out = self @ mat2 (2-D by 2-D)"""
    grad_fn_name, name, n_inputs = "MmBackward0", "mm", 2
    jvp = "bilinear"
    saves = ("mat2", "self")
    save_when = {"self": 1, "mat2": 0}
    rule = "grad @ mat2.T, self.T @ grad"

    promotes = False

    def forward(self, mat2):
        if self.shape[1] != mat2.shape[0]:
            raise RuntimeError(f"mat1 and mat2 shapes cannot be multiplied ({_x(self.shape)} "
                               f"and {_x(mat2.shape)})")
        check_m1_m2(self, mat2)
        return matmul2d(self, mat2)

    def backward(ctx, grad):
        a, b = ctx.needs_input_grad
        grad = grad_in(grad, ctx.mat2 if a else ctx.self)
        # conj: NOTE [complex gradients] in complex.py (a real tensor passes as it is)
        return (grad.mm(conj(ctx.mat2.t())) if a else None,
                conj(ctx.self.t()).mm(grad) if b else None)

    @classmethod
    def sample_inputs(cls, make, shape):
        n = (shape + (2, 3))[:2]
        yield make(n), make((n[1], 2))

    @classmethod
    def local_rows(cls, node, a, sizes):    # each matrix laid out (_local_rows.py)
        return _local_rows.matmul(node, cls, a, sizes, (None, *node._fns), None, "self")


class Mv(Op):
    """out = self @ vec (2-D by 1-D)"""
    grad_fn_name, name, n_inputs = "MvBackward0", "mv", 2
    jvp = "bilinear"
    saves = ("self", "vec")
    save_when = {"self": 1, "vec": 0}
    rule = "outer(grad, vec), self.T @ grad"

    promotes = False

    def forward(self, vec):
        if self.shape[1] != vec.shape[0]:
            raise RuntimeError(f"size mismatch, got input ({self.shape[0]}), mat "
                               f"({_x(self.shape)}), vec ({vec.shape[0]})")
        if self.dtype != vec.dtype:     # addmv's result starts in vec's dtype
            raise RuntimeError("addmv input tensors must have the same dtype, but got "
                               f"{legacy_name(vec)}, {legacy_name(self)}, and "
                               f"{legacy_name(vec)}")
        out = small_mv(self, vec)
        return self @ vec if out is None else out

    def backward(ctx, grad):
        a, b = ctx.needs_input_grad
        grad = grad_in(grad, ctx.vec if a else ctx.self)
        return (grad.unsqueeze(1).mm(conj(ctx.vec.unsqueeze(0))) if a else None,
                conj(ctx.self.t()).mv(grad) if b else None)

    @classmethod
    def sample_inputs(cls, make, shape):
        yield make((2, 3)), make((3,))


class Dot(Op):
    """out = sum(self * tensor) (1-D by 1-D)"""
    grad_fn_name, name, n_inputs = "DotBackward0", "dot", 2
    jvp = "bilinear"
    saves = ("self", "tensor")
    save_when = {"self": 1, "tensor": 0}
    rule = "grad * tensor, grad * self"

    promotes = False

    def forward(self, tensor):
        if self.dtype != tensor.dtype:
            raise RuntimeError("dot : expected both vectors to have same dtype, but found "
                               f"{legacy_name(self)} and {legacy_name(tensor)}")
        if self.shape != tensor.shape:
            raise RuntimeError(f"inconsistent tensor size, expected tensor [{self.size}] and "
                               f"src [{tensor.size}] to have the same number of elements, but "
                               f"got {self.size} and {tensor.size} elements respectively")
        out = small_dot(self, tensor)
        return np.asarray(self @ tensor) if out is None else out

    def backward(ctx, grad):
        a, b = ctx.needs_input_grad
        grad = grad_in(grad, ctx.tensor if a else ctx.self)
        return (grad * conj(ctx.tensor) if a else None, grad * conj(ctx.self) if b else None)

    @classmethod
    def sample_inputs(cls, make, shape):
        yield make((3,)), make((3,))


class Bmm(Op):
    """out[b] = self[b] @ mat2[b] (3-D by 3-D)"""
    grad_fn_name, name, n_inputs = "BmmBackward0", "bmm", 2
    jvp = "bilinear"
    saves = ("mat2", "self")
    save_when = {"self": 1, "mat2": 0}
    rule = "grad @ mat2^T, self^T @ grad (per batch)"

    promotes = False

    def forward(self, mat2):
        if self.shape[0] != mat2.shape[0] or self.shape[2] != mat2.shape[1]:
            raise RuntimeError("Expected size for first two dimensions of batch2 tensor to be: "
                               f"[{self.shape[0]}, {self.shape[2]}] but got: "
                               f"[{mat2.shape[0]}, {mat2.shape[1]}].")
        if self.dtype != mat2.dtype:
            raise RuntimeError(f"expected scalar type {legacy_name(self)} but found "
                               f"{legacy_name(mat2)}")
        if self.shape[1] * self.shape[2] * mat2.shape[2] < 400 and self.dtype == mat2.dtype:
            return sequential(self, mat2, fused=False)   # NOTE [small matrix products]
        return self @ mat2

    def backward(ctx, grad):
        a, b = ctx.needs_input_grad
        grad = grad_in(grad, ctx.mat2 if a else ctx.self)
        return (grad.bmm(conj(ctx.mat2.transpose(1, 2))) if a else None,
                conj(ctx.self.transpose(1, 2)).bmm(grad) if b else None)

    @classmethod
    def sample_inputs(cls, make, shape):
        yield make((2, 2, 3)), make((2, 3, 2))


def mm(input, mat2) -> Tensor:
    """Matrix product of two 2-D tensors (`torch.mm`)."""
    both_tensors("mm", input, "mat2", mat2, Tensor)
    if mat2.ndim != 2:
        raise RuntimeError("mat2 must be a matrix")
    if input.ndim != 2:
        raise RuntimeError("self must be a matrix")
    return Mm.apply(input, mat2)


def mv(input, vec) -> Tensor:
    both_tensors("mv", input, "vec", vec, Tensor)
    return Mv.apply(input, vec)


def dot(input, tensor) -> Tensor:
    both_tensors("dot", input, "tensor", tensor, Tensor)
    if input.ndim != 1 or tensor.ndim != 1:
        raise RuntimeError(f"1D tensors expected, but got {input.ndim}D and {tensor.ndim}D "
                           "tensors")
    return Dot.apply(input, tensor)


def bmm(input, mat2) -> Tensor:
    """Batched matrix product of two 3-D tensors (`torch.bmm`), with PyTorch's refusals."""
    both_tensors("bmm", input, "mat2", mat2, Tensor)
    for name, t in (("batch1", input), ("batch2", mat2)):
        if t.ndim != 3:
            raise RuntimeError(f"{name} must be a 3D tensor")
    want = [input.shape[0], input.shape[2]]
    if list(mat2.shape[:2]) != want:
        raise RuntimeError("Expected size for first two dimensions of batch2 tensor to be: "
                           f"{want} but got: {list(mat2.shape[:2])}.")
    return Bmm.apply(input, mat2)


def matmul(input, other) -> Tensor:
    """`input @ other` for any ranks, recorded through the same nodes PyTorch uses.

    Example:
        >>> import gradstep.engine as torch
        >>> w = torch.ones(2, 3, requires_grad=True)
        >>> type((w @ torch.ones(3)).grad_fn).__name__
        'MvBackward0'
    """
    from .shape import MatmulSqueeze, UnsafeView
    both_tensors("matmul", input, "other", other, Tensor)
    da, db = input.ndim, other.ndim
    if da == 0 or db == 0:
        raise RuntimeError(f"both arguments to matmul need to be at least 1D, but they are "
                           f"{da}D and {db}D")
    if da == 1 and db == 1:
        return Dot.apply(input, other)
    if da == 2 and db == 1:
        return Mv.apply(input, other)
    if da == 2 and db == 2:
        return Mm.apply(input, other)
    if da == 1 and db == 2:
        return MatmulSqueeze.apply(Mm.apply(input.unsqueeze(0), other), 0)
    if da >= 3 and db <= 2:
        lead = input._data.shape[:-1]
        flat = input.reshape((-1, input._data.shape[-1]))
        if db == 1:
            return UnsafeView.apply(Mv.apply(flat, other), lead)
        return UnsafeView.apply(Mm.apply(flat, other), lead + (other._data.shape[-1],))
    return _batched(input, other)


def _batched(a, b) -> Tensor:
    """Broadcast batch dims, fold them into one, bmm, and unfold (PyTorch's general case)."""
    from .shape import MatmulSqueeze, UnsafeView
    va, vb = a.ndim == 1, b.ndim == 1
    if va:
        a = a.unsqueeze(0)
    if vb:
        b = b.unsqueeze(1)
    batch = tuple(np.broadcast_shapes(a._data.shape[:-2], b._data.shape[:-2]))
    n, k, m = a._data.shape[-2], a._data.shape[-1], b._data.shape[-1]
    if b._data.shape[-2] != k:
        raise RuntimeError(f"Expected size for first two dimensions of batch2 tensor to be: "
                           f"[{int(np.prod(batch))}, {k}] but got: "
                           f"[{int(np.prod(batch))}, {b._data.shape[-2]}].")
    a3 = a.expand(batch + (n, k)).reshape((-1, n, k))
    b3 = b.expand(batch + (k, m)).reshape((-1, k, m))
    out = UnsafeView.apply(Bmm.apply(a3, b3), batch + (n, m))
    if va:
        out = MatmulSqueeze.apply(out, -2 + out.ndim)
    if vb:
        out = MatmulSqueeze.apply(out, out.ndim - 1)
    return out


def outer(input, vec2) -> Tensor:
    """Outer product of two vectors (`torch.outer`): PyTorch's input viewed as a column
    times vec2 (MulBackward0 over a ViewBackward0)."""
    for name, v in (("self", input), ("vec2", vec2)):
        if v.ndim != 1:
            raise RuntimeError(f"outer: Expected 1-D argument {name}, but got {v.ndim}-D")
    return input.reshape((input._data.shape[0], 1)) * vec2


__all__ = ["mm", "mv", "dot", "bmm", "matmul", "outer", "sum_to"]


# ---- inverse ------------------------------------------------------------------------------
class _LinAlgError(RuntimeError):
    """PyTorch's `torch.linalg.LinAlgError` (a RuntimeError), raised for singular input."""


_LinAlgError.__module__ = "torch._C"     # an uncaught one prints as PyTorch's does


def _zero_pivot(a: np.ndarray) -> int:
    """The 1-based index of the first zero pivot of LU with partial pivoting (LAPACK's getrf
    info, which PyTorch reports), for a square matrix numpy found singular."""
    u = np.array(a, dtype=np.float64)
    n = u.shape[0]
    for k in range(n):
        p = k + int(np.argmax(np.abs(u[k:, k])))
        if u[p, k] == 0:
            return k + 1
        u[[k, p]] = u[[p, k]]
        u[k + 1:] -= np.outer(u[k + 1:, k] / u[k, k], u[k])
    return n


class LinalgInvEx(Op):
    """out = self^-1 (square matrices, batched)"""
    grad_fn_name, name = "LinalgInvExBackward0", "linalg_inv_ex"
    saves = ("result",)      # exposed as _saved_inverse below, PyTorch's name
    rule = "-inverse^T @ grad @ inverse^T"

    def forward(self, check_errors=True):
        if check_errors:
            return np.linalg.inv(self)
        return _inv_unchecked(self)

    @staticmethod
    def forward_error(arrays, params, error):
        a = arrays[0]
        mats = a.reshape((-1,) + a.shape[-2:])
        for i, m in enumerate(mats):
            try:
                np.linalg.inv(m)
            except np.linalg.LinAlgError:
                where = f"(Batch element {i}): " if a.ndim > 2 else ""
                return _LinAlgError(
                    f"linalg.inv: {where}The diagonal element {_zero_pivot(m)} is zero, the "
                    "inversion could not be completed because the input matrix is singular.")
        return RuntimeError(str(error))

    def backward(ctx, grad):
        inv_t = ctx.result.transpose(-2, -1)
        return (-(inv_t.matmul(grad.matmul(inv_t))),)

    @classmethod
    def sample_inputs(cls, make, shape):
        n = shape[-1] if shape else 2
        eye = np.eye(n) * (n + 2.0)       # diagonally dominant, so well conditioned
        a = make((n, n), -1.0, 1.0)
        yield (a + a.new_tensor(eye)).detach().requires_grad_(),


LinalgInvEx.Node._saved_inverse = LinalgInvEx.Node._saved_result
del LinalgInvEx.Node._saved_result
LinalgInvEx.Node._saved_names = ("inverse",)


def _inv_unchecked(a: np.ndarray) -> np.ndarray:
    """Inverses of a batch of square matrices; a singular one comes out as LAPACK's LU solve
    leaves it (divisions by its zero pivot: infs and nans), as `linalg.inv_ex` returns it."""
    mats = a.reshape((-1,) + a.shape[-2:])
    out = np.empty_like(mats)
    for i, m in enumerate(mats):
        try:
            out[i] = np.linalg.inv(m)
        except np.linalg.LinAlgError:
            out[i] = _lu_solve_identity(m)
    return out.reshape(a.shape)


def _lu_solve_identity(a: np.ndarray) -> np.ndarray:
    """A^-1 by LU with partial pivoting and two triangular solves, carried on past a zero
    pivot (getrf then getrs, as PyTorch's inv_ex runs them)."""
    u = np.array(a)
    n = u.shape[0]
    perm = np.arange(n)
    low = np.eye(n, dtype=a.dtype)
    with np.errstate(all="ignore"):
        for k in range(n):
            p = k + int(np.argmax(np.abs(u[k:, k])))
            u[[k, p]], perm[[k, p]], low[[k, p], :k] = u[[p, k]], perm[[p, k]], low[[p, k], :k]
            if u[k, k] != 0:
                low[k + 1:, k] = u[k + 1:, k] / u[k, k]
                u[k + 1:] -= np.outer(low[k + 1:, k], u[k])
        y = np.eye(n, dtype=a.dtype)[perm]
        for i in range(n):
            y[i] -= low[i, :i] @ y[:i]
        x = np.empty_like(y)
        for i in reversed(range(n)):
            x[i] = (y[i] - u[i, i + 1:] @ x[i + 1:]) / u[i, i]
    return x


def _pivots(a: np.ndarray) -> np.ndarray:
    """LAPACK's info per matrix of a batch: 0, or the 1-based index of the first zero pivot."""
    mats = a.reshape((-1,) + a.shape[-2:])
    info = np.zeros(len(mats), dtype=np.int32)
    for i, m in enumerate(mats):
        try:
            np.linalg.inv(m)
        except np.linalg.LinAlgError:
            info[i] = _zero_pivot(m)
    return info.reshape(a.shape[:-2])


class _InvExReturn(namedtuple("_InvExReturn", ("inverse", "info")), metaclass=TorchNamed):
    """`torch.return_types.linalg_inv_ex`: (inverse, info)."""

    __slots__ = ()
    _torch_name = "torch.return_types.linalg_inv_ex"

    def __repr__(self) -> str:
        from ..printing import structseq_repr
        return structseq_repr("linalg_inv_ex", self._asdict())


_InvExReturn.__name__ = _InvExReturn.__qualname__ = "linalg_inv_ex"


def inv_ex(A, *, check_errors: bool = False):
    """The inverse and LAPACK's info per matrix (`torch.linalg.inv_ex`): a singular matrix
    gives a nonzero info (and infs or nans) instead of an error, unless check_errors.

    Example:
        >>> import gradstep.engine as torch
        >>> torch.linalg.inv_ex(torch.tensor([[1.0, 2.0], [2.0, 4.0]])).info
        tensor(2, dtype=torch.int32)
    """
    _check_invertible_shape(A)
    info = _pivots(A._data)
    if check_errors and info.any():
        i = int(np.flatnonzero(info)[0])
        where = f"(Batch element {i}): " if A.ndim > 2 else ""
        raise _LinAlgError(
            f"linalg.inv_ex: {where}The diagonal element {int(info.reshape(-1)[i])} is zero, "
            "the inversion could not be completed because the input matrix is singular.")
    return _InvExReturn(LinalgInvEx.apply(A, False), new_tensor(info))


def _check_invertible_shape(input) -> None:
    shape = input._data.shape
    if input._data.dtype.kind not in "fc":
        raise RuntimeError("linalg.inv: Expected a floating point or complex tensor as input. "
                           f"Got {input.dtype.legacy[:-6]}")
    if len(shape) < 2:
        raise RuntimeError("linalg.inv: The input tensor A must have at least 2 dimensions.")
    if shape[-1] != shape[-2]:
        raise RuntimeError("linalg.inv: A must be batches of square matrices, but they are "
                           f"{shape[-2]} by {shape[-1]} matrices")


def inverse(input) -> Tensor:
    """The inverse of a square matrix or a batch of them (`torch.inverse`, `linalg.inv`)."""
    _check_invertible_shape(input)
    return LinalgInvEx.apply(input)
