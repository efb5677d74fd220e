"""In-place writes through views: PyTorch's CopySlices and regenerated view grad_fns.

PyTorch counterparts: `torch::autograd::CopySlices`, `AsStridedBackward0` (`Tensor.as_strided`).

# NOTE [writes through views]
# A view shares its root base's memory and version counter; `_op._make_view` records the root
# in the view's `_x["view_of"]`. When an op writes in place into a view of a tensor with
# history, PyTorch rebases the root's history: the root's grad_fn becomes a CopySlices node
# whose backward sends the written region of the incoming gradient through the op's own
# backward node (`fn`) and passes the rest through untouched. Every view of the root (the
# written one included) then reports an AsStridedBackward0 node on the root's new grad_fn, as
# PyTorch regenerates a view's grad_fn once its version moved. An in-place op on the root itself
# regenerates its views the same way. Roots keep weak references to their views for that
# (`_x["views"]`), recorded only for roots that have a grad_fn.
"""
from __future__ import annotations

import weakref

import numpy as np

from ..tensor import Tensor
from ._op import Op, edge
from .indexing import CopySlicesNode, Index, IndexPut


def _positions(size, stride, offset, base_shape) -> tuple:
    """Index arrays into a `base_shape` tensor for the elements of an as_strided view."""
    flat = np.full(tuple(size), offset, dtype=np.int64)
    for d, (n, s) in enumerate(zip(size, stride)):
        flat += (np.arange(n) * s).reshape((-1,) + (1,) * (len(size) - d - 1))
    return np.unravel_index(flat, base_shape)


def _check_in_storage(size, stride, offset, flat) -> None:
    """PyTorch's checks before a strided view: numpy's as_strided checks nothing, and a view
    past either end of the storage would read and write other memory."""
    if any(s < 0 for s in stride):
        raise RuntimeError(f"as_strided: Negative strides are not supported at the moment, "
                           f"got strides: {list(stride)}")
    if offset < 0:
        raise RuntimeError(f"Tensor: invalid storage offset {offset}")
    if any(n < 0 for n in size) or len(size) != len(stride):
        raise RuntimeError(f"as_strided: sizes {list(size)} and strides {list(stride)} do not "
                           f"describe a view")
    needed = 0 if 0 in size else offset + 1 + sum((n - 1) * s for n, s in zip(size, stride))
    if needed > flat.size:
        raise RuntimeError(
            f"setStorage: sizes {list(size)}, strides {list(stride)}, storage offset {offset}, "
            f"and itemsize {flat.itemsize} requiring a storage size of {needed * flat.itemsize}"
            f" are out of bounds for storage of size {flat.size * flat.itemsize}")


class AsStrided(Op):
    """out = self seen with size, stride and storage_offset (over its contiguous layout)"""
    grad_fn_name, name, is_view = "AsStridedBackward0", "as_strided", True
    jvp = "linear"
    saves = ("size", "storage_offset", "stride", "_self_sym_sizes")
    rule = "grad added back at the positions the view reads"

    def forward(self, size, stride, storage_offset=0):
        flat = np.ascontiguousarray(self).reshape(-1)
        _check_in_storage(tuple(size), tuple(stride), storage_offset, flat)
        return np.lib.stride_tricks.as_strided(flat[storage_offset:], tuple(size),
                                               tuple(s * flat.itemsize for s in stride))

    def backward(ctx, grad):
        shape = ctx._self_sym_sizes
        where = _positions(ctx.size, ctx.stride, ctx.storage_offset or 0, shape)
        return (IndexPut.apply(grad, shape, where),)

    @classmethod
    def sample_inputs(cls, make, shape):
        n = int(np.prod(shape))
        if n >= 2 and shape:
            yield make(shape), (n // 2,), (2,), n % 2
        if shape:
            yield make(shape), (1,), (1,), 0


class _ViewCopySlicesNode(CopySlicesNode):
    __slots__ = ()

    def free(self) -> None:
        CopySlicesNode.free(self)
        self._saved[-1].free()     # the op's own node holds the saved tensors


class ViewCopySlices(Op):
    """root with its region (size, stride, storage_offset) rewritten by fn, in place"""
    grad_fn_name, name, n_inputs = "CopySlices", "copy_slices", 1
    saves = ("_size", "_stride", "_storage_offset", "_fn")
    rule = "grad outside the region; fn's backward of the region inside (and to fn's inputs)"
    node_base = _ViewCopySlicesNode

    def forward(self, _size, _stride, _storage_offset, _fn):  # pragma: no cover - never run
        raise NotImplementedError("CopySlices is recorded by in-place writes, not applied")

    def backward(ctx, grad):
        where = _positions(ctx._size, ctx._stride, ctx._storage_offset, grad._data.shape)
        region = Index.apply(grad, where)
        outs = ctx._fn.apply((region,))
        rest = grad - IndexPut.apply(region, grad._data.shape, where)
        if outs[0] is not None:
            rest = rest + IndexPut.apply(outs[0], grad._data.shape, where)
        return (rest,) + tuple(outs[1:])

    @classmethod
    def apply(cls, self, src):
        """For the gradient checks: `root = self * 1`, then `root.view(-1)[1:].mul_(src)`."""
        root = self * 1
        root.reshape(-1)[1:].mul_(src)
        return root

    @classmethod
    def sample_inputs(cls, make, shape):
        n = int(np.prod(shape))
        if n >= 2:
            yield make(shape), make(())
            yield make(shape), make((n - 1,))


def track(root: Tensor, view: Tensor) -> None:
    """Remember `view` on `root`, whose views are regenerated after in-place writes."""
    x = root._extra()
    x.setdefault("views", []).append(weakref.ref(view))


def geometry(region: np.ndarray, root: np.ndarray):
    """(size, stride, storage_offset) of `region`, an ndarray view into `root`'s memory,
    counted over root's elements in order (its contiguous layout); None if not a view."""
    item = root.itemsize
    if not root.ndim:
        return None     # a 0-d root: its views keep their own history (not PyTorch's names)
    start = region.__array_interface__["data"][0] - root.__array_interface__["data"][0]
    if not np.shares_memory(region, root) or start % item:
        return None
    if root.flags.c_contiguous:
        return (region.shape, tuple(s // item for s in region.strides), start // item)
    # another layout: map memory offsets back to root's element order
    mem = _offsets(root).reshape(-1)
    order = np.argsort(mem, kind="stable")
    pos = order[np.searchsorted(mem[order], start // item + _offsets(region))]
    first = int(pos.reshape(-1)[0]) if pos.size else 0
    stride = tuple(int(pos[(0,) * d + (1,)].reshape(-1)[0]) - first if n > 1 else 1
                   for d, n in enumerate(region.shape))
    return (region.shape, stride, first)


def _offsets(a: np.ndarray) -> np.ndarray:
    out = np.zeros(a.shape, dtype=np.int64)
    for d, (n, s) in enumerate(zip(a.shape, a.strides)):
        out += (np.arange(n) * (s // a.itemsize)).reshape((-1,) + (1,) * (a.ndim - d - 1))
    return out


def written(view: Tensor) -> None:
    """After an in-place op recorded `view.grad_fn` (its fn) on a view: rebase the root."""
    root = view._x["view_of"]
    geo = geometry(view._data, root._data)
    fn = view.grad_fn
    if geo is None or fn is None:
        return
    node = ViewCopySlices.Node()
    node.next_functions = (edge(root),) + tuple(fn.next_functions[1:])
    node._saved, node._versions = (geo[0], geo[1], geo[2], fn), (None,) * 4
    root.grad_fn, root._rg, root._out_nr = node, True, 0
    regenerate(root, view)


def regenerate(root: Tensor, written_view: Tensor | None = None) -> None:
    """Give the root's views (and the one just written) AsStridedBackward0 grad_fns."""
    refs = root._x.get("views", []) if root._x is not None else []
    views = [v for v in (r() for r in refs) if v is not None]
    if written_view is not None and not any(v is written_view for v in views):
        views.append(written_view)
        track(root, written_view)
    for v in views:
        geo = geometry(v._data, root._data)
        if geo is None:
            continue
        node = AsStrided.Node()
        node.next_functions = (edge(root),)
        node._saved = (geo[0], geo[2], geo[1], root._data.shape)
        node._versions = (None,) * 4
        v.grad_fn, v._rg, v._out_nr = node, True, 0
