"""Grids and contractions built from other ops: `torch.meshgrid`, `torch.cartesian_prod` and
`torch.tensordot`.

None has a node of its own in PyTorch: each is a fixed sequence of views, reshapes and a
matrix product (ATen's meshgrid, cartesian_prod and tensordot), and the sequence is repeated
here op for op, so a learner's graph holds PyTorch's nodes (ExpandBackward0 over
ViewBackward0 for a grid; ViewBackward0 over MmBackward0 over the permuted, reshaped inputs
for a contraction) and the numbers round as PyTorch's do.
"""
from __future__ import annotations

from .. import messages
from ..tensor import Tensor
from .join import stack
from .linalg import mm
from .shape import expand, flatten, permute, reshape, view

_INDEXING_WARNING = ("torch.meshgrid: in an upcoming release, it will be required to pass the "
                     "indexing argument.")


def meshgrid(*tensors, indexing: str | None = None) -> tuple:
    """Coordinate grids of 0-D or 1-D tensors: grid k holds tensor k's values along dimension
    k, expanded over the others ("ij"); "xy" swaps the roles of the first two, as numpy's
    meshgrid does. A single list or tuple of tensors is taken as the tensors."""
    if len(tensors) == 1 and isinstance(tensors[0], (list, tuple)):
        tensors = tuple(tensors[0])
    if indexing is None:
        messages.warn_once(_INDEXING_WARNING)  # TORCH_WARN_ONCE: the first call only
        indexing = "ij"
    if not tensors:
        raise RuntimeError("meshgrid expects a non-empty TensorList")
    for t in tensors:
        if t.dim() > 1:
            raise RuntimeError("torch.meshgrid: Expected 0D or 1D tensor in the tensor list "
                               f"but got: {t}")
    if any(t.dtype != tensors[0].dtype for t in tensors):
        raise RuntimeError("meshgrid expects all tensors to have the same dtype")
    if indexing not in ("xy", "ij"):
        raise RuntimeError('torch.meshgrid: indexing must be one of "xy" or "ij", but '
                           f"received: {indexing}")
    refs = list(tensors)
    swap = indexing == "xy" and len(refs) >= 2
    if swap:
        refs[0], refs[1] = refs[1], refs[0]
    shape = [t.numel() for t in refs]
    view_shape = [1] * len(refs)
    grids = []
    for i, t in enumerate(refs):
        view_shape[i] = -1
        grids.append(expand(view(t, *view_shape), *shape))
        view_shape[i] = 1
    if swap:
        grids[0], grids[1] = grids[1], grids[0]
    return tuple(grids)


def cartesian_prod(*tensors) -> Tensor:
    """Every combination of one element from each 1-D tensor, one per row, the last tensor
    varying fastest; a single tensor comes back as it is."""
    for t in tensors:
        if t.dim() != 1:
            raise RuntimeError(f"Expect a 1D vector, but got shape {list(t.shape)}")
    if len(tensors) == 1:
        return tensors[0]
    grids = meshgrid(*tensors, indexing="ij")
    return stack([flatten(g) for g in grids], 1)


def tensordot(a: Tensor, b: Tensor, dims=2, out=None) -> Tensor:
    """Sum of products over `dims`: the last `dims` dimensions of `a` against the first of
    `b`, or the two lists of dimensions given; the free dimensions of `a`, then of `b`, make
    the result. Computed as PyTorch does: each input permuted (free dimensions first for `a`,
    last for `b`), reshaped to a matrix, one matrix product, reshaped back."""
    if isinstance(dims, Tensor):
        dims = dims.tolist()
    if isinstance(dims, (list, tuple)):
        if len(dims) != 2:
            raise RuntimeError("tensordot expects dims to be a pair of lists of dimensions")
        dims_a, dims_b = dims
        dims_a = [dims_a] if isinstance(dims_a, int) else list(dims_a)
        dims_b = [dims_b] if isinstance(dims_b, int) else list(dims_b)
    else:
        if dims < 0:
            raise RuntimeError(f"tensordot expects dims >= 0, but got dims={dims}")
        if dims > min(a.dim(), b.dim()):
            raise RuntimeError(f"tensordot expects dims < ndim_a or ndim_b, but got dims={dims}")
        dims_a, dims_b = list(range(-dims, 0)), list(range(dims))
    if len(dims_a) != len(dims_b):
        raise RuntimeError("both dimension lists should have same length")
    if a.dtype != b.dtype:
        raise RuntimeError("both inputs should have same dtype")
    t1, t2, csize = a, b, 1
    for da, db in zip(dims_a, dims_b):
        s1, s2 = a.shape[da], b.shape[db]
        if s2 == 1:     # a broadcast dimension is summed right away
            t1 = t1.sum(da, keepdim=True)
        elif s1 == 1:
            t2 = t2.sum(db, keepdim=True)
        else:
            if s1 != s2:
                raise RuntimeError(f"contracted dimensions need to match, but first has size "
                                   f"{s1} in dim {da} and second has size {s2} in dim {db}")
            csize *= s1
    contracted_a = {d % a.dim() for d in dims_a} if a.dim() else set()
    contracted_b = {d % b.dim() for d in dims_b} if b.dim() else set()
    free_a = [i for i in range(a.dim()) if i not in contracted_a]
    free_b = [i for i in range(b.dim()) if i not in contracted_b]
    size1 = size2 = 1
    for i in free_a:
        size1 *= t1.shape[i]
    for i in free_b:
        size2 *= t2.shape[i]
    rsizes = [t1.shape[i] for i in free_a] + [t2.shape[i] for i in free_b]
    t1 = reshape(permute(t1, *free_a, *dims_a), size1, csize)
    t2 = reshape(permute(t2, *dims_b, *free_b), csize, size2)
    result = reshape(mm(t1, t2), *rsizes)
    if out is not None:
        out.copy_(result)
        return out
    return result
