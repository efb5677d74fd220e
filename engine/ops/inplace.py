"""In-place ops (`add_`, `mul_`, `zero_`, `copy_`, ...): write into the tensor, bump its
version counter, and make the tensor's grad_fn the op's node (PyTorch's history rebase).

An in-place op reuses its out-of-place Op class (so `y.mul_(2)` records MulBackward0). If the
op saves `self`, the node keeps a copy of the value before the write, as PyTorch's generated
code does; saved `result` entries point at the modified tensor at its new version.
"""
from __future__ import annotations

import numpy as np

from .. import _events, messages
from ..grad_mode import state as _grad_state
from ..tensor import Tensor, batch_sizes, batched_uids, counter, new_tensor
from .._dual import tangents
from ._op import (_KIND_ARG, _KIND_RESULT, Op, OpNode, as_array, check_inference_write,
                  check_inplace, check_overlap)
from ._tangents import has_tangent, push, tangent_of, write_inplace


def apply_inplace(cls: type, name: str, t: Tensor, *args) -> Tensor:
    """Run `cls` on (t, *args) and store the result in t; return t."""
    check_inplace(t)
    if cls is not Fill and cls is not Zero:
        check_overlap(t)
    n_other = cls.n_inputs - 1
    others = args[:n_other]     # an absent optional input (clamp_'s max=None) is None
    if batched_uids:
        _refuse_batched_write(name, t, others)
    out = _forward(cls, t, others, args[n_other:])
    if tangents and has_tangent((t,) + tuple(others)):     # forward mode (_tangents.py)
        _push_inplace(cls, t, others, args, out)
    node = None
    if _grad_state.enabled and (t._rg or any(o is not None and o._rg for o in others)):
        node = _record(cls, t, others, args)
    t._data[...] = out
    counter(t)[0] += 1
    check_inference_write(t)
    if node is not None:
        versions = list(node._versions)
        for i, (kind, _, _) in enumerate(cls._spec):
            if kind == _KIND_RESULT:
                versions[i] = t._vc[0]
        node._versions = tuple(versions)
    _report(name, t, others, node)
    if t._x is not None and node is not None:
        from .indexing import after_inplace     # NOTE [writes through views] in views.py
        after_inplace(t)
    return t


def _refuse_batched_write(name: str, t: Tensor, others) -> None:
    """Inside vmap, writing a batched tensor into one that is not: PyTorch's batching rules
    refuse (add_ as a broadcast that does not fit, the others in words of their own), where
    running once per example would write into `t` again and again."""
    if t._uid in batched_uids or not any(o is not None and o._uid in batched_uids
                                         for o in others):
        return
    if name != "add_":
        raise RuntimeError(messages.VMAP_INPLACE)
    shapes = [t._data.shape] + [o._data.shape for o in others if o is not None]
    whole = list(batch_sizes) + list(np.broadcast_shapes(*shapes))
    raise RuntimeError(f"output with shape {list(t._data.shape)} doesn't match the broadcast "
                       f"shape {whole}")


def _forward(cls, t, others, params) -> np.ndarray:
    arrays = [t._data] + [None if o is None else o._data for o in others]
    try:
        out = as_array(cls.forward(*arrays, *params))
        np.broadcast_to(out, t._data.shape)
    except ValueError:
        shapes = [a.shape for a in arrays if a is not None]
        for other in shapes[1:]:        # operands that do not broadcast, named as PyTorch
            if messages.size_mismatch(shapes[0], other):
                raise RuntimeError(messages.size_mismatch(shapes[0], other)) from None
        shape = np.broadcast_shapes(*shapes)
        raise RuntimeError(f"output with shape {list(t._data.shape)} doesn't match the "
                           f"broadcast shape {list(shape)}") from None
    if out.dtype.kind == "f" and t._data.dtype.kind != "f":
        raise RuntimeError(f"result type Float can't be cast to the desired output type "
                           f"{t.dtype.legacy[:-6]}")
    return out


def _push_inplace(cls, t, others, args, out) -> None:
    """t's tangent after the write: the op's rule run out of place, on a stand-in holding t's
    value before the write, into a stand-in holding the value after it, then written into
    t's tangent (`write_inplace`)."""
    before, after = new_tensor(t._data.copy()), new_tensor(out)
    before._rg, after._rg = t._rg, t._rg
    ts = (tangent_of(t),) + tuple(None if o is None else tangent_of(o) for o in others)
    push(cls, (before,) + tuple(others), (before,) + tuple(args), after, None, ts)
    tangent = tangents.pop(after._uid, None)
    if tangent is not None:
        write_inplace(t, tangent)


def _record(cls, t, others, args):
    """Build the node as if out of place, from a stand-in holding t's old value and edge."""
    saves_self = any(kind == _KIND_ARG and j == 0 for kind, j, _ in cls._spec)
    old = new_tensor(t._data)
    old.grad_fn, old._rg, old._out_nr, old._acc = t.grad_fn, t._rg, t._out_nr, t._acc
    saved = _clone(old) if saves_self else old
    return cls._make_node((old,) + tuple(others), t, (saved,) + tuple(args), None)


def _clone(t: Tensor) -> Tensor:
    """The value before the write, as PyTorch's generated in-place code saves it: a clone
    (`_saved_self` prints grad_fn=<CloneBackward0>), recorded without an op event, as it is
    autograd's bookkeeping rather than the user's op."""
    from .shape import Clone
    quiet, _grad_state.quiet = _grad_state.quiet, True
    try:
        return Clone.apply(t)
    finally:
        _grad_state.quiet = quiet


def _report(name, t, others, node) -> None:
    if _events.listener is not None:
        _events.listener.on_inplace(t, name, t._vc[0])
        _events.listener.on_op(name, (t,) + tuple(o for o in others if o is not None), t,
                               node)
    if t._x is not None and "grad_of" in t._x and _events.listener is not None:
        _events.listener.on_grad_reset(t._x["grad_of"], name)


class Zero(Op):
    """self = 0 (in place)"""
    grad_fn_name, name, rule = "ZeroBackward0", "zero_", "0"

    def forward(self):
        return np.zeros_like(self)

    def backward(ctx, grad):
        return (grad * 0,)

    @classmethod
    def sample_inputs(cls, make, shape):
        yield (make(shape),)


class Fill(Op):
    """self = value everywhere (in place)"""
    grad_fn_name, name, rule = "FillBackward2", "fill_", "0"

    def forward(self, value):
        return np.full_like(self, value)

    def backward(ctx, grad):
        return (grad * 0,)

    @classmethod
    def sample_inputs(cls, make, shape):
        yield make(shape), 1.5


class CopyBackwardsNode(OpNode):
    """CopyBackwards is a hand-written C++ node in PyTorch; name() gives its qualified name."""

    __slots__ = ()

    def name(self) -> str:
        return "torch::autograd::CopyBackwards"


class Copy(Op):
    """self = src (in place, src broadcast to self's shape)"""
    grad_fn_name, name, n_inputs = "CopyBackwards", "copy_", 2
    node_base = CopyBackwardsNode
    saves = ("_src_sym_sizes",)
    rule = "0 to self, grad summed to src's shape"

    def forward(self, src):
        return np.broadcast_to(src, self.shape).astype(self.dtype)

    def backward(ctx, grad):
        from ._broadcast import sum_to
        a, b = ctx.needs_input_grad
        return (grad * 0 if a else None, sum_to(grad, ctx._src_sym_sizes) if b else None)

    @classmethod
    def sample_inputs(cls, make, shape):
        yield make(shape), make(shape)


def zero_(t: Tensor) -> Tensor:
    if not (_grad_state.enabled and t._rg):
        check_inplace(t)
        t._data[...] = 0
        counter(t)[0] += 1
        check_inference_write(t)
        _report("zero_", t, (), None)
        return t
    return apply_inplace(Zero, "zero_", t)


def fill_(t: Tensor, value) -> Tensor:
    return apply_inplace(Fill, "fill_", t, value.item() if isinstance(value, Tensor) else value)


def copy_(t: Tensor, src) -> Tensor:
    return apply_inplace(Copy, "copy_", t, src)
