"""The determinant: what `torch.det` / `torch.linalg.det` / `Tensor.det` record.

PyTorch counterpart: `linalg_det` (`LinalgDetBackward0`), which factors A = P L U with partial
pivoting (LAPACK's getrf), saves the packed factors as `LU`, the 1-based row swaps as `pivots`
(int32) and the determinant as `result`, and returns sign(P) * the product of U's diagonal.
The gradient is grad * det * A^-T, solved with the saved factors (a zero pivot replaced by
eps, as PyTorch does, so a singular A gets zeros). With create_graph=True the gradient is built
from engine ops (grad * det * inverse), which needs an invertible A.
"""
from __future__ import annotations

import numpy as np

from ..grad_mode import state as _grad_state
from ..tensor import Tensor, new_tensor
from ._op import Op


def lu_factor(a: np.ndarray) -> tuple:
    """(LU, pivots) of one square matrix, as LAPACK's unblocked getrf: the first largest
    |entry| of each column is the pivot, the multipliers are scaled by the pivot's reciprocal,
    and elimination carries on past a zero pivot (leaving that column alone)."""
    lu = np.array(a)
    n = lu.shape[0]
    piv = np.arange(1, n + 1, dtype=np.int32)
    for k in range(n):
        p = k + int(np.argmax(np.abs(lu[k:, k])))
        piv[k] = p + 1
        if p != k:
            lu[[k, p]] = lu[[p, k]]
        if lu[k, k] != 0:
            lu[k + 1:, k] *= lu.dtype.type(1) / lu[k, k]
            lu[k + 1:, k + 1:] -= np.outer(lu[k + 1:, k], lu[k, k + 1:])
    return lu, piv


def _det_of(lu: np.ndarray, piv: np.ndarray) -> np.ndarray:
    swaps = int(np.count_nonzero(piv != np.arange(1, len(piv) + 1)))
    prod = lu.dtype.type(1)
    for d in np.diagonal(lu):          # PyTorch: sign times the diagonal's product, in order
        prod = prod * d
    return lu.dtype.type(-1 if swaps % 2 else 1) * prod


def _lu_solve(lu: np.ndarray, piv: np.ndarray, b: np.ndarray) -> np.ndarray:
    """X with (P L U) X = B (getrs): the row swaps, then column-oriented triangular solves
    with unit L and with U in the reference BLAS order, which skips an entry that is zero
    (so a -0 keeps its sign) and scales by the pivot's reciprocal."""
    n = lu.shape[0]
    x = np.array(b)
    for k in range(n):
        p = piv[k] - 1
        if p != k:
            x[[k, p]] = x[[p, k]]
    for k in range(n):
        live = x[k] != 0
        x[k + 1:] -= np.where(live, x[k] * lu[k + 1:, k, None], 0)
    for k in reversed(range(n)):
        live = x[k] != 0
        x[k] = np.where(live, x[k] * (lu.dtype.type(1) / lu[k, k]), x[k])
        x[:k] -= np.where(live, x[k] * lu[:k, k, None], 0)
    return x


def _use_a_t(a: np.ndarray) -> bool:
    return a.flags.c_contiguous


class LinalgDet(Op):
    """out = det(A), batched over leading dims"""
    grad_fn_name, name = "LinalgDetBackward0", "linalg_det"
    saves = ("A", "LU", "pivots", "result")
    forward_extras = ("LU", "pivots")
    forward_params = ("A", "_use_a_t")
    rule = "grad * det(A) * A^-T (the cofactor matrix)"

    def forward(self, _use_a_t):
        # PyTorch factors A^T when A is C-contiguous (LAPACK wants columns); det(A^T) = det(A)
        n = self.shape[-1]
        if n == 0:            # the empty product: det 1, an empty LU
            return (np.ones(self.shape[:-2], dtype=self.dtype),
                    (new_tensor(self.copy()), new_tensor(np.zeros(self.shape[:-1], np.int32))))
        mats = self.reshape((-1,) + self.shape[-2:])
        if _use_a_t:
            mats = mats.transpose(0, 2, 1)
        lus, pivs, dets = np.empty_like(mats), [], []
        for i, m in enumerate(mats):
            lus[i], piv = lu_factor(m)
            pivs.append(piv)
            dets.append(_det_of(lus[i], piv))
        pivots = np.array(pivs, dtype=np.int32).reshape(self.shape[:-2] + (n,))
        det = np.array(dets, dtype=self.dtype).reshape(self.shape[:-2])
        return det, (new_tensor(lus.reshape(self.shape)), new_tensor(pivots))

    def backward(ctx, grad):
        if _grad_state.enabled:           # create_graph: a formula the engine can differentiate
            from .linalg import inverse
            scale = (grad * ctx.result).unsqueeze(-1).unsqueeze(-1)
            return (scale * inverse(ctx.A).transpose(-2, -1),)
        a, g, det = ctx.A._data, grad._data, ctx.result._data
        n = a.shape[-1]
        lus = ctx.LU._data.reshape((-1, n, n))
        pivs = ctx.pivots._data.reshape((-1, n))
        scale = (np.asarray(g) * det).reshape(-1)
        # PyTorch's no-grad path: a zero pivot becomes eps, so a singular A gets the limit of
        # nearby invertible ones (zeros times a huge inverse: zero), not nan
        eps = np.finfo(a.dtype).eps
        out = np.empty_like(lus)
        for i, (lu, piv, d) in enumerate(zip(lus, pivs, scale)):
            lu = lu + np.diag(np.where(np.diagonal(lu) == 0, eps, 0).astype(a.dtype))
            x = _lu_solve(lu, piv, np.diag(np.full(n, d, dtype=a.dtype)))  # +0 off it
            out[i] = x if _use_a_t(a) else x.T
        return (new_tensor(out.reshape(a.shape)),)

    @classmethod
    def apply(cls, A: Tensor) -> Tensor:
        det, extras = cls.forward(A._data, _use_a_t(A._data))
        return cls._record((A,), det, (A, None), extras)

    @classmethod
    def sample_inputs(cls, make, shape):
        n = shape[-1] if shape else 2
        a = make((n, n), -1.0, 1.0)
        yield (a + a.new_tensor(np.eye(n) * (n + 2.0))).detach().requires_grad_(),


def det(A: Tensor) -> Tensor:
    """The determinant of a square matrix or of each in a batch (`torch.det`, `linalg.det`).

    Example:
        >>> import gradstep.engine as torch
        >>> torch.det(torch.tensor([[2.0, 1.0], [1.0, 3.0]]))
        tensor(5.)
    """
    shape = A._data.shape
    if len(shape) < 2:
        raise RuntimeError("linalg.det: The input tensor A must have at least 2 dimensions.")
    if shape[-1] != shape[-2]:
        raise RuntimeError("linalg.det: A must be batches of square matrices, but they are "
                           f"{shape[-2]} by {shape[-1]} matrices")
    if A._data.dtype.kind not in "fc":
        raise RuntimeError("linalg.det: Expected a floating point or complex tensor as input. "
                           f"Got {A.dtype.legacy[:-6]}")
    return LinalgDet.apply(A)
