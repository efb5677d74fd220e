"""Indexing: `t[key]` and `t[key] = value` (PyTorch's `Tensor.__getitem__`/`__setitem__`).

Basic indexing is decomposed as PyTorch records it: an int is a SelectBackward0 view, a
partial slice a SliceBackward0 view, `None` an UnsqueezeBackward0, a full `:` nothing.
Lists, tensors and masks are advanced indexing: one IndexBackward0 (a copy). Assignment
writes in place, bumps the version counter and records CopySlices.
"""
from __future__ import annotations

import numpy as np

from .. import _events, messages
from ..grad_mode import state as _grad_state
from ..tensor import Tensor, counter, new_tensor
from ._broadcast import sum_to
from ._op import Op, OpNode, check_inference_write, check_inplace, edge, scalar
from .._dual import attach, tangents
from ._tangents import has_tangent, tangent_of, writable_tangent
from ._tangents import _enter as quiet_tangents, _leave as loud_tangents

_BIG = 9223372036854775807   # PyTorch's "to the end" slice bound


class Select(Op):
    """out = self[..., index, ...] at dimension dim (a view)"""
    grad_fn_name, name, is_view = "SelectBackward0", "select", True
    jvp = "linear"
    saves = ("dim", "index", "self_sym_sizes")
    rule = "grad placed at index, zeros elsewhere"

    def forward(self, dim, index):
        n = self.shape[dim]
        if not -n <= index < n:
            raise IndexError(f"index {index} is out of bounds for dimension {dim} with size {n}")
        # the trailing Ellipsis keeps the result an array view even when it is 0-d
        # (self[index] on a 1-D array would be a numpy scalar, a copy)
        return self[(slice(None),) * dim + (index % n, Ellipsis)]

    def backward(ctx, grad):
        return (Embed.apply(grad, ctx.self_sym_sizes, _basic_key(ctx.dim, ctx.index)),)

    @classmethod
    def sample_inputs(cls, make, shape):
        if shape:
            yield make(shape), 0, shape[0] - 1


class Slice(Op):
    """out = self[start:end:step] along dimension dim (a view)"""
    grad_fn_name, name, is_view = "SliceBackward0", "slice", True
    jvp = "linear"
    saves = ("dim", "end", "self_sym_sizes", "start", "step")
    rule = "grad placed in the slice, zeros elsewhere"

    def forward(self, dim, start, end, step):
        return self[(slice(None),) * dim + (slice(start, end, step),)]

    def backward(ctx, grad):
        key = _basic_key(ctx.dim, slice(ctx.start, ctx.end, ctx.step))
        return (Embed.apply(grad, ctx.self_sym_sizes, key),)

    @classmethod
    def sample_inputs(cls, make, shape):
        if shape:
            yield make(shape), 0, 1, _BIG, 1


class Embed(Op):
    """out = zeros(sizes) with self written at key (the backward of select and slice)"""
    grad_fn_name, name = "SliceBackwardBackward0", "slice_backward"
    jvp = "linear"
    saves = ("key",)
    rule = "grad read back at key"

    def forward(self, sizes, key):
        out = np.zeros(sizes, dtype=self.dtype)
        out[key] = self
        return out

    def backward(ctx, grad):
        return (Index.apply(grad, ctx.key),)

    @classmethod
    def sample_inputs(cls, make, shape):
        yield make(shape), (2,) + tuple(shape), (1,)


class Index(Op):
    """out = self[indices] with advanced (integer-array or mask) indexing (a copy)"""
    grad_fn_name, name = "IndexBackward0", "index"
    jvp = "linear"
    saves = ("indices", "self_sym_sizes")
    rule = "grad scattered (summed) back to the indexed positions"

    def forward(self, indices):
        return self[indices]

    def backward(ctx, grad):
        return (IndexPut.apply(grad, ctx.self_sym_sizes, ctx.indices),)

    @classmethod
    def sample_inputs(cls, make, shape):
        if shape:
            yield make(shape), (np.array([0, shape[0] - 1, 0]),)


class IndexPut(Op):
    """out = zeros(sizes) with self added at indices (the backward of indexing)"""
    grad_fn_name, name = "IndexPutBackward0", "index_put"
    jvp = "linear"
    saves = ("indices",)
    rule = "grad gathered back at indices"

    def forward(self, sizes, indices):
        out = np.zeros(sizes, dtype=self.dtype)
        np.add.at(out, indices, self)
        return out

    def backward(ctx, grad):
        return (Index.apply(grad, ctx.indices),)

    @classmethod
    def sample_inputs(cls, make, shape):
        yield make((3,) + tuple(shape)), (4,) + tuple(shape), (np.array([0, 2, 0]),)


def _basic_key(dim: int, item) -> tuple:
    return (slice(None),) * dim + (item,)


def _is_advanced(item) -> bool:
    """A list, array or tensor index, except a 0-d integer one (an int, to PyTorch)."""
    if isinstance(item, Tensor):
        item = item._data
    return isinstance(item, (list, np.ndarray)) and not (
        isinstance(item, np.ndarray) and item.ndim == 0 and item.dtype.kind in "iu")


def _np_key(key: tuple) -> tuple:
    return tuple(k._data if isinstance(k, Tensor) else np.asarray(k) if isinstance(k, list)
                 else k for k in key)


def getitem(t: Tensor, key) -> Tensor:
    """`t[key]`, recorded as PyTorch records it (see the module docstring)."""
    if type(key) is int and t._data.ndim:
        # `params[0]`, the commonest index in learners' loops: what the loop below does for
        # it, without the generic decomposition
        return Select.apply(t, 0, key)
    from .shape import Unsqueeze
    if t._data.ndim == 0:
        _check_0d_key(key)
    key = key if isinstance(key, tuple) else (key,)
    if any(_is_advanced(k) for k in key):
        return Index.apply(t, _np_key(key))
    n_real = sum(1 for k in key if k is not None and k is not Ellipsis)
    if n_real > t.ndim:
        raise IndexError(f"too many indices for tensor of dimension {t.ndim}")
    out, dim = t, 0
    for k in key:
        if k is Ellipsis:
            dim += t.ndim - n_real
        elif k is None:
            out = Unsqueeze.apply(out, dim)
            dim += 1
        elif isinstance(k, slice):
            start, stop, step = k.indices(out._data.shape[dim])
            if (start, stop, step) != (0, out._data.shape[dim], 1):
                end = _BIG if k.stop is None else k.stop
                out = Slice.apply(out, dim, 0 if k.start is None else k.start, end, step)
            dim += 1
        else:
            out = Select.apply(out, dim, int(k))
    if out is t:
        return _alias(t)
    return out


def _check_0d_key(key) -> None:
    """PyTorch's refusals of `scalar[0]` (`loss[0]`, from old code's `loss.data[0]`), of
    `scalar[:]` and of a list or 1-d tensor index into a 0-d tensor."""
    if isinstance(key, (int, np.integer)) and not isinstance(key, (bool, np.bool_)):
        if key == 0:
            raise IndexError("invalid index of a 0-dim tensor. Use `tensor.item()` in Python or "
                             "`tensor.item<T>()` in C++ to convert a 0-dim tensor to a number")
        raise IndexError(f"index {key} is out of bounds for dimension 0 with size 0")
    if isinstance(key, slice):
        raise IndexError("slice() cannot be applied to a 0-dim tensor.")
    keys = key if isinstance(key, tuple) else (key,)
    if any(_is_advanced(k) and np.asarray(_np_key((k,))[0]).dtype.kind != "b" for k in keys):
        raise IndexError("too many indices for tensor of dimension 0")


def _alias(t: Tensor) -> Tensor:
    """`t[:]` or `t[...]`: PyTorch returns a fresh view with the same grad_fn edge."""
    from .shape import View
    return View.apply(t, t._data.shape) if t._rg else new_alias(t)


def new_alias(t: Tensor) -> Tensor:
    out = new_tensor(t._data.view())
    out._vc = counter(t)
    return out


class CopySlicesNode(OpNode):
    """CopySlices is a C++ node of its own in PyTorch; name() gives its qualified name."""

    __slots__ = ()

    def name(self) -> str:
        return "torch::autograd::CopySlices"


class CopySlices(Op):
    """self[key] = src, in place: self's old grad minus the overwritten part, src's summed"""
    grad_fn_name, name, n_inputs = "CopySlices", "setitem", 2
    node_base = CopySlicesNode
    saves = ("_key", "_src_sym_sizes")
    rule = "grad with key zeroed (to self), grad[key] (to src)"

    forward = staticmethod(lambda self, src, _key, _src_sym_sizes: None)

    def backward(ctx, grad):
        a, b = ctx.needs_input_grad
        key = ctx._key
        ga = grad - Embed.apply(Index.apply(grad, key), grad._data.shape, key) if a else None
        gb = sum_to(Index.apply(grad, key), ctx._src_sym_sizes) if b else None
        return ga, gb

    @classmethod
    def sample_inputs(cls, make, shape):
        from ..factories import zeros
        if shape:
            yield zeros(shape, dtype=None).double(), make(shape[1:]), 0


class IndexPutInplace(Op):
    """self[indices] = values with advanced indices, in place (index_put_, accumulate False):
    self's grad zeroed where written, values' the grad read there (summed back)"""
    grad_fn_name, name, n_inputs = "IndexPutBackward0", "index_put_", 2
    saves = ("accumulate", "indices", "_values_sym_sizes")
    rule = "grad with indices zeroed (to self), grad[indices] (to values)"

    forward = staticmethod(lambda self, values, accumulate, indices, _values_sym_sizes: None)

    def backward(ctx, grad):
        a, b = ctx.needs_input_grad
        key = tuple(slice(None) if k is None else k._data for k in ctx.indices)
        ga = gb = None
        if a:
            written = np.zeros(grad._data.shape, dtype=bool)
            written[key] = True
            ga = grad.masked_fill(new_tensor(written), 0.0)
        if b:
            gb = sum_to(Index.apply(grad, key), ctx._values_sym_sizes)
        return ga, gb

    @classmethod
    def sample_inputs(cls, make, shape):
        from ..factories import zeros
        if shape:
            index = new_tensor(np.array([shape[0] - 1]))
            yield zeros(shape, dtype=None).double(), make((1,) + tuple(shape[1:])), (index,)


def _index_put_key(nkey: tuple):
    """The indices of an assignment PyTorch runs as index_put_ on the tensor itself (advanced
    indices, full slices as None), else None: a key with an int or a partial slice (or an
    Ellipsis, here) writes through a view, recorded as CopySlices."""
    if not any(_is_advanced(k) for k in nkey):
        return None
    full = slice(None)
    if not all(_is_advanced(k) or k == full for k in nkey):
        return None
    return tuple(new_tensor(np.asarray(k)) if _is_advanced(k) else None for k in nkey)


def setitem(t: Tensor, key, value) -> None:
    """`t[key] = value`: write in place, bump the version, record CopySlices when needed."""
    nkey = _np_key(key if isinstance(key, tuple) else (key,))
    if _grad_state.enabled and t._rg and t.grad_fn is None and not any(
            _is_advanced(k) for k in nkey):
        # PyTorch writes through a view t[key], so it names the view in its refusal
        raise RuntimeError(messages.VIEW_LEAF_INPLACE)
    check_inplace(t, "Select" if isinstance(key, int) else
                  "Slice" if isinstance(key, slice) else "")
    src = value if isinstance(value, Tensor) else scalar(value, t)
    if tangents and has_tangent((t, src)):     # forward mode (NOTE [tangents of views])
        write_region(t, nkey, src)
    t._data[nkey] = src._data
    counter(t)[0] += 1
    check_inference_write(t)
    _copy_slices(t, nkey, src)
    if _events.listener is not None:
        _events.listener.on_inplace(t, "setitem", t._vc[0])
    if t._x is not None:
        after_inplace(t)


def write_region(t: Tensor, key, src: Tensor) -> None:
    """Forward mode of `t[key] = src`: t's tangent[key] = src's tangent (zeros when src has
    none), written with setitem so its history is CopySlices, as PyTorch's; a tensor without
    a tangent gets zeros around the written part (NOTE [tangents of views] in _tangents.py)."""
    own = writable_tangent(t)
    if own is None:
        own = new_tensor(np.zeros(t._data.shape, t._data.dtype)) if tangent_of(t) is None \
            else tangent_of(t).clone()
        attach(t, own)
    written = tangent_of(src)
    prev, quiet = quiet_tangents()
    try:
        setitem(own, key, 0 if written is None else written)
    finally:
        loud_tangents(prev, quiet)


def _copy_slices(t: Tensor, nkey: tuple, src: Tensor) -> None:
    """Make t's grad_fn a CopySlices joining t's old history and src's, when either needs it
    (IndexPutBackward0 for a key PyTorch writes with index_put_ on t itself)."""
    if _grad_state.enabled and (t._rg or src._rg):
        indices = _index_put_key(nkey)
        if indices is None:
            node = CopySlices.Node()
            node._saved = (nkey, src._data.shape)
        else:
            node = IndexPutInplace.Node()
            node._saved = (False, indices, src._data.shape)
        node.next_functions = (edge(t), edge(src))
        node._versions = (None,) * len(node._saved)
        t.grad_fn, t._rg, t._out_nr = node, True, 0


def after_inplace(t: Tensor) -> None:
    """After an in-place write into `t`: rebase the root's history if `t` is a view with a
    recorded write, regenerate the grad_fns of `t`'s views if it is a root (views.py)."""
    if t._x.get("view_of") is not None:
        if _grad_state.enabled and t._rg:
            views.written(t)
    elif t._x.get("views") and _grad_state.enabled and t._rg:
        views.regenerate(t)


CopySlices.apply = classmethod(lambda cls, self, src, key: (setitem(self, key, src), self)[1])
IndexPutInplace.apply = classmethod(
    lambda cls, self, values, indices: (setitem(self, indices, values), self)[1])

# loaded with this module: in-place writes reach views.py lazily, and the runner's sandbox
# lets a program import nothing new once it runs
from . import views  # noqa: E402 - after_inplace uses it
