"""Moving elements around: `torch.roll`, and compositions PyTorch records through other ops'
nodes: `torch.movedim`/`moveaxis` (PermuteBackward0), `torch.tile` (RepeatBackward0),
`torch.hstack`/`vstack` (CatBackward0), `torch.masked_fill` (MaskedFillBackward0), and
`torch.nonzero`, which is never differentiable, and `torch.unflatten` (ViewBackward0).
"""
from __future__ import annotations

import numpy as np

from ..tensor import Tensor, new_tensor
from ._op import Op
from .join import cat
from ._dims import dims_in_order, dims_of
from .shape import MaskedFill, permute, repeat


class Roll(Op):
    """out = self shifted by shifts along dims, wrapping around (flattened when no dims)"""
    grad_fn_name, name, saves = "RollBackward0", "roll", ("dims", "shifts")
    rule = "grad rolled back by -shifts"

    def forward(self, shifts, dims):
        return np.roll(self, shifts, axis=dims) if dims else np.roll(self, shifts[0])

    def backward(ctx, grad):
        return (Roll.apply(grad, tuple(-s for s in ctx.shifts), ctx.dims),)

    @classmethod
    def sample_inputs(cls, make, shape):
        yield make(shape), (1,), ()
        if shape:
            yield make(shape), (-2,), (len(shape) - 1,)


def _ints(v) -> tuple:
    return (int(v),) if isinstance(v, (int, np.integer)) else tuple(int(i) for i in v)


def roll(input, shifts, dims=None) -> Tensor:
    """Shift elements along dims, wrapping around; without dims, over the flattened tensor
    (`torch.roll`).

    Example:
        >>> import gradstep.engine as torch
        >>> torch.roll(torch.tensor([1, 2, 3]), 1).tolist()
        [3, 1, 2]
    """
    shifts = _ints(shifts)
    dims = () if dims is None else _ints(dims)
    if dims and len(shifts) != len(dims):
        raise RuntimeError(f"shifts and dimensions must align. shifts: {len(shifts)}, "
                           f"dims:{len(dims)}")
    if not dims and len(shifts) != 1:
        raise RuntimeError(f"shifts and dimensions must align. shifts: {len(shifts)}, dims:0")
    return Roll.apply(input, shifts, dims_in_order(dims, input.ndim))


def movedim(input, source, destination) -> Tensor:
    """Move dims `source` to positions `destination`, the others keeping their order
    (`torch.movedim`); recorded as a permute."""
    src, dst = _ints(source), _ints(destination)
    if len(src) != len(dst):
        raise RuntimeError(f"movedim: Invalid source or destination dims: source "
                           f"({list(src)} dims) should contain the same number of dims as "
                           f"destination ({list(dst)} dims)")
    nd = input.ndim
    src_n = [dims_of(d, nd)[0] if nd else 0 for d in src]
    dst_n = [dims_of(d, nd)[0] if nd else 0 for d in dst]
    for label, given, normal in (("source", src, src_n), ("destination", dst, dst_n)):
        if len(set(normal)) != len(normal):
            raise RuntimeError(f"movedim: repeated dim in `{label}` ({list(given)})")
    order = [-1] * nd
    for s, d in zip(src_n, dst_n):
        order[d] = s
    rest = iter(d for d in range(nd) if d not in src_n)
    order = [next(rest) if o == -1 else o for o in order]
    return permute(input, tuple(order))


moveaxis = movedim


def tile(input, dims) -> Tensor:
    """Repeat the tensor `dims` times along each dim, 1s filled in at the front when `dims` is
    shorter than the tensor's rank (`torch.tile`)."""
    reps = _ints(dims)
    reps = (1,) * (input.ndim - len(reps)) + reps
    return repeat(input, reps)


def _atleast(t: Tensor, nd: int) -> Tensor:
    """PyTorch's atleast_1d / atleast_2d as hstack and vstack use them."""
    if t.ndim == 0:
        return t.reshape((1,) * nd)
    if t.ndim == 1 and nd == 2:
        return t.unsqueeze(0)
    return t


def hstack(tensors) -> Tensor:
    """Join along dim 1 (dim 0 for vectors) (`torch.hstack`)."""
    tensors = [_atleast(t, 1) for t in tensors]
    if not tensors:
        raise RuntimeError("hstack expects a non-empty TensorList")
    return cat(tensors, 0 if tensors[0].ndim == 1 else 1)


def vstack(tensors) -> Tensor:
    """Join along dim 0, vectors as rows (`torch.vstack`)."""
    tensors = [_atleast(t, 2) for t in tensors]
    if not tensors:
        raise RuntimeError("vstack expects a non-empty TensorList")
    return cat(tensors, 0)


def masked_fill(input, mask, value) -> Tensor:
    """`value` where mask is True, input elsewhere (`torch.masked_fill`)."""
    return MaskedFill.apply(input, mask, value.item() if isinstance(value, Tensor) else value)


def nonzero(input, *, as_tuple: bool = False):
    """Indices of the non-zero elements: one row per element (`torch.nonzero`), or with
    `as_tuple=True` one index tensor per dim; never differentiable.

    Example:
        >>> import gradstep.engine as torch
        >>> torch.nonzero(torch.tensor([0, 3, 0, 5])).tolist()
        [[1], [3]]
    """
    a = input._data
    if as_tuple:
        return tuple(new_tensor(i.astype(np.int64)) for i in np.nonzero(np.atleast_1d(a)))
    return new_tensor(np.argwhere(a).astype(np.int64))


def unflatten(input: Tensor, dim: int, sizes) -> Tensor:
    """Split dimension `dim` into `sizes` (one of them may be -1): a view (`ViewBackward0`).

    Example:
        >>> import gradstep.engine as torch
        >>> torch.zeros(2, 6).unflatten(1, (3, -1)).shape
        torch.Size([2, 3, 2])
    """
    asked = [int(n) for n in sizes]
    if not asked:
        raise RuntimeError("unflatten: sizes must be non-empty")
    if asked.count(-1) > 1:
        # PyTorch's text, without the C++ stack trace it appends
        raise RuntimeError("unflatten got an unexpected error:\nonly one dimension can be "
                           "inferred")
    d = dims_of(dim, input.ndim)[0]
    n = input._data.shape[d]
    known = int(np.prod([s for s in asked if s != -1]))
    sizes = [n // known if s == -1 and known else s for s in asked]
    if int(np.prod(sizes)) != n:
        raise RuntimeError(f"unflatten: Provided sizes {asked} don't multiply up to the size "
                           f"of dim {d} ({n}) in the input tensor")
    shape = input._data.shape
    return input.view(shape[:d] + tuple(sizes) + shape[d + 1:])
