"""Joining and cutting: `torch.cat`, `torch.stack`, `Tensor.split`/`chunk`, `torch.unbind`.

cat and stack take a list of tensors (one next_functions edge each); split and unbind give
several outputs that share one grad_fn, told apart by their output number, as in PyTorch.
"""
from __future__ import annotations

import numpy as np

from .. import _events
from ..grad_mode import state as _grad_state
from ..tensor import Tensor, counter, new_tensor
from ._dims import dim_of
from ._op import Op, OpNode, _make_view
from .._dual import tangents as _tangents
from ._tangents import has_tangent, push_many


def _filled(inputs, tangents) -> list:
    from ..factories import zeros_like
    return [zeros_like(x) if t is None else t for x, t in zip(inputs, tangents)]


class Cat(Op):
    """out = tensors joined along dim"""
    grad_fn_name, name, saves = "CatBackward0", "cat", ("dim", "_sizes")
    rule = "grad sliced back into each input's part"

    @classmethod
    def apply(cls, tensors, dim):
        arrays = [t._data for t in tensors]
        nd = arrays[0].ndim
        for a in arrays[1:]:
            if a.ndim != nd:
                raise RuntimeError("Tensors must have same number of dimensions: got "
                                   f"{nd} and {a.ndim}")
        for i, a in enumerate(arrays[1:], 1):
            for d in range(nd):
                if d != dim and a.shape[d] != arrays[0].shape[d]:
                    raise RuntimeError(
                        f"Sizes of tensors must match except in dimension {dim}. Expected size "
                        f"{arrays[0].shape[d]} but got size {a.shape[d]} for tensor number {i} "
                        "in the list.")
        if len({a.dtype for a in arrays}) > 1:
            arrays = _promote_all(tensors, arrays)
        out = np.concatenate(arrays, axis=dim)
        sizes = tuple(a.shape[dim] for a in arrays)
        return cls._record(tuple(tensors), out, (dim, sizes))

    forward = staticmethod(lambda dim, _sizes: None)   # apply does the work; names the saves

    def backward(ctx, grad):
        out, start, dim = [], 0, int(ctx.dim)    # PyTorch's formula wraps the dim first
        for n in ctx._sizes:
            out.append(grad.narrow(dim, start, n))
            start += n
        return tuple(out)

    def jvp(ctx, *tangents):     # the tangents joined, zeros for an input without one
        return Cat.apply(_filled(ctx.inputs, tangents), ctx.dim)

    @classmethod
    def sample_inputs(cls, make, shape):
        if shape:
            yield [make(shape), make(shape)], 0


class Stack(Op):
    """out = tensors stacked along a new dimension dim"""
    grad_fn_name, name, saves = "StackBackward0", "stack", ("dim",)
    rule = "grad selected back at each input's index"

    @classmethod
    def apply(cls, tensors, dim):
        arrays = [t._data for t in tensors]
        for i, a in enumerate(arrays[1:], 1):
            if a.shape != arrays[0].shape:
                raise RuntimeError("stack expects each tensor to be equal size, but got "
                                   f"{list(arrays[0].shape)} at entry 0 and {list(a.shape)} "
                                   f"at entry {i}")
        if len({a.dtype for a in arrays}) > 1:
            arrays = _promote_all(tensors, arrays)
        return cls._record(tuple(tensors), np.stack(arrays, axis=dim), (dim,))

    forward = staticmethod(lambda dim: None)

    def backward(ctx, grad):
        return tuple(grad.select(ctx.dim, i) for i in range(grad._data.shape[ctx.dim]))

    def jvp(ctx, *tangents):     # the tangents stacked, zeros for an input without one
        return Stack.apply(_filled(ctx.inputs, tangents), ctx.dim)

    @classmethod
    def sample_inputs(cls, make, shape):
        yield [make(shape), make(shape)], 0


def _promote_all(tensors, arrays) -> list:
    from ..dtypes import result_type
    dims = [t.dtype for t in tensors if t.ndim]
    zero = [t.dtype for t in tensors if not t.ndim]
    target = result_type(dims, zero, []).np
    return [a.astype(target) for a in arrays]


class _MultiNode(OpNode):
    """grad_fn shared by several outputs (split, unbind): missing grads count as zeros."""

    __slots__ = ()

    def apply(self, grads: tuple) -> tuple:
        return type(self)._backward(self, grads)


class Split(Op):
    """outs = self cut along dim into pieces of split_size"""
    grad_fn_name, name, is_view = "SplitBackward0", "split", True
    jvp = "linear"
    view_name = "Split"        # how PyTorch names it when refusing an in-place write
    saves = ("dim", "self_sym_sizes", "split_size")
    rule = "the pieces' grads joined back (zeros for unused pieces)"
    node_base = _MultiNode

    @classmethod
    def apply(cls, self, split_size, dim):
        n = self._data.shape[dim]
        cuts = list(range(split_size, n, split_size))
        return _multi(cls, self, np.split(self._data, cuts, axis=dim), (self, split_size, dim))

    forward = staticmethod(lambda self, split_size, dim: None)

    def backward(ctx, grads):
        from ..factories import zeros
        sizes, dim = ctx.self_sym_sizes, int(ctx.dim)     # wrapped, as PyTorch's formula
        ref = next(g for g in grads if g is not None)
        parts = []
        for i, g in enumerate(grads):
            if g is None:
                shape = list(sizes)
                shape[dim] = min(ctx.split_size, sizes[dim] - i * ctx.split_size)
                g = zeros(tuple(shape), dtype=ref.dtype)
            parts.append(g)
        return (cat(parts, dim),)

    @classmethod
    def sample_inputs(cls, make, shape):
        if shape and shape[0] > 1:
            yield make(shape), 1, 0


class Unbind(Op):
    """outs = self's slices along dim"""
    grad_fn_name, name, is_view = "UnbindBackward0", "unbind", True
    jvp = "linear"
    view_name = "Unbind"
    saves = ("dim", "_self_sym_sizes")
    rule = "the slices' grads stacked back (zeros for unused slices)"
    node_base = _MultiNode

    @classmethod
    def apply(cls, self, dim):
        a = self._data
        pieces = [a[(slice(None),) * dim + (i, ...)] for i in range(a.shape[dim])]   # views
        return _multi(cls, self, pieces, (self, dim))

    forward = staticmethod(lambda self, dim: None)

    def backward(ctx, grads):
        from ..factories import zeros
        shape = list(ctx._self_sym_sizes)
        del shape[ctx.dim]
        ref = next(g for g in grads if g is not None)
        parts = [g if g is not None else zeros(tuple(shape), dtype=ref.dtype) for g in grads]
        return (stack(parts, ctx.dim),)

    @classmethod
    def sample_inputs(cls, make, shape):
        if shape:
            yield make(shape), 0


class SplitWithSizes(Op):
    """outs = self cut along dim into pieces of the given sizes"""
    grad_fn_name, name, is_view = "SplitWithSizesBackward0", "split_with_sizes", True
    jvp = "linear"
    view_name = "SplitWithSizes"
    saves = ("dim", "self_sym_sizes", "split_sizes")
    rule = "the pieces' grads joined back (zeros for unused pieces)"
    node_base = _MultiNode

    @classmethod
    def apply(cls, self, split_sizes, dim):
        n = self._data.shape[dim]
        if sum(split_sizes) != n:
            raise RuntimeError(f"split_with_sizes expects split_sizes to sum exactly to {n} "
                               f"(input tensor's size at dimension {dim}), but got "
                               f"split_sizes={list(split_sizes)}")
        cuts = np.cumsum(split_sizes)[:-1].tolist()
        return _multi(cls, self, np.split(self._data, cuts, axis=dim), (self, split_sizes, dim))

    forward = staticmethod(lambda self, split_sizes, dim: None)

    def backward(ctx, grads):
        from ..factories import zeros
        sizes, dim = ctx.self_sym_sizes, ctx.dim
        ref = next(g for g in grads if g is not None)
        parts = []
        for g, size in zip(grads, ctx.split_sizes):
            if g is None:
                shape = list(sizes)
                shape[dim] = size
                g = zeros(tuple(shape), dtype=ref.dtype)
            parts.append(g)
        return (cat(parts, dim),)

    @classmethod
    def sample_inputs(cls, make, shape):
        if shape and shape[0] > 1:
            yield make(shape), (1, shape[0] - 1), 0


class UnsafeSplit(Split):
    """outs = self cut along dim into pieces of split_size, as copies (no view bookkeeping)"""
    grad_fn_name, name, is_view = "UnsafeSplitBackward0", "unsafe_split", False
    view_name = ""

    @classmethod
    def apply(cls, self, split_size, dim):
        n = self._data.shape[dim]
        cuts = list(range(split_size, n, split_size))
        pieces = [p.copy() for p in np.split(self._data, cuts, axis=dim)]
        return _multi(cls, self, pieces, (self, split_size, dim))


def _multi(cls, self: Tensor, arrays: list, args: tuple) -> tuple:
    """Record one node for several outputs, each output numbered by `_out_nr`. Unless the op
    is unsafe_split, the outputs are views of `self` (they share its memory and version
    counter); made in grad mode from a tensor that requires grad, they refuse in-place
    writes, as PyTorch's do."""
    outs = tuple(new_tensor(a) for a in arrays)
    if cls.is_view:
        for o in outs:
            _make_view(o, self)
    node = None
    if _grad_state.enabled and self._rg and self._data.dtype.kind == "f":
        node = cls._make_node((self,), outs[0], args, None)
        node._n_out = len(outs)
        for i, o in enumerate(outs):
            o._rg, o.grad_fn, o._out_nr = True, node, i
            if cls.is_view:
                o._vc = counter(self)
                o._x["multi"] = (i, cls.view_name)
    if _tangents and has_tangent((self,)):      # forward mode (_tangents.py)
        push_many(cls, (self,), args, outs)
    if _events.listener is not None and not _grad_state.quiet:
        for o in outs:
            _events.listener.on_op(cls.name, (self,), o, node)
    return outs


# ---- public entry points ------------------------------------------------------------------
def _dim(d: int, ndim: int) -> int:
    return dim_of(d, ndim)


def split(x: Tensor, split_size, dim: int = 0) -> tuple:
    d = _dim(dim, x.ndim)
    if isinstance(split_size, (list, tuple)):
        return SplitWithSizes.apply(x, tuple(int(n) for n in split_size), d)
    return Split.apply(x, split_size, d)


def chunk(x: Tensor, chunks: int, dim: int = 0) -> tuple:
    d = _dim(dim, x.ndim)
    n = x._data.shape[d]
    return Split.apply(x, -(-n // chunks), d)


def unsafe_split(x: Tensor, split_size: int, dim: int = 0) -> tuple:
    """split without view semantics (`torch.unsafe_split`): what PyTorch's recurrent cells
    cut their gates with; the pieces may be written in place."""
    return UnsafeSplit.apply(x, split_size, _dim(dim, x.ndim))


def unsafe_chunk(x: Tensor, chunks: int, dim: int = 0) -> tuple:
    d = _dim(dim, x.ndim)
    return UnsafeSplit.apply(x, -(-x._data.shape[d] // chunks), d)


def unbind(x: Tensor, dim: int = 0) -> tuple:
    return Unbind.apply(x, _dim(dim, x.ndim))


def cat(tensors, dim: int = 0) -> Tensor:
    """Join tensors along an existing dimension (`torch.cat`)."""
    tensors = list(tensors)
    if not tensors:
        raise RuntimeError("torch.cat(): expected a non-empty list of Tensors")
    return Cat.apply(tensors, _dim(dim, tensors[0].ndim))


def stack(tensors, dim: int = 0) -> Tensor:
    """Join same-shaped tensors along a new dimension (`torch.stack`)."""
    tensors = list(tensors)
    if not tensors:
        raise RuntimeError("stack expects a non-empty TensorList")
    return Stack.apply(tensors, _dim(dim, tensors[0].ndim + 1))
