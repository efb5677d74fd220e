"""Forward mode: pushing tangents through an op (J·t), for `torch.autograd.forward_ad`.

After an op runs, if a dual level is open and an input has a tangent, `push` gives the result
its tangent. Where the rule comes from, in order:

1. the op's `jvp`, declared in its class beside forward and backward. It is either
   - `"linear"`: the op is linear in its tensor inputs, so J·t is the op applied to the
     tangents (zeros for a missing one): sum, mean, views, indexing, cat's pieces, neg ...;
   - `"bilinear"`: two inputs, linear in each, so J·t = op(t0, x1) + op(x0, t1): mm, mv,
     dot, bmm;
   - `"elementwise"`: one input, elementwise, so J is diagonal and J·t = Jᵀt is the op's
     own backward with the tangent in place of the gradient: exp, sin, tanh, relu ...;
   - a function `jvp(ctx, *tangents)`: PyTorch's forward formula in engine Tensor ops, where
     none of the above gives its numbers or its grad_fn names. `ctx.<name>` reads forward's
     arguments by parameter name (`ctx.self`, `ctx.other`, `ctx.alpha`), `ctx.result` the
     output, `ctx.inputs` the tensor inputs; a tangent is None where that input has none.
   These are PyTorch's own `auto_linear` / `auto_element_wise` derivations and formulas, so
   the tangent has PyTorch's values and, being computed with grad mode as it stands, its
   grad_fn (a tangent is differentiable in PyTorch too).
2. otherwise the op's backward, by the double-vjp trick: backward(g) = Jᵀg is linear in the
   cotangent g, so differentiating <backward(g), t> with respect to g gives J·t exactly (up
   to rounding order). This serves every op that has a backward, at the price of building
   a small graph, and gives a tangent without a grad_fn.

The arithmetic runs with the listener unset: it is the engine's bookkeeping, not the
learner's ops, and the trace shows tangents through `tangent_of` instead.
"""
from __future__ import annotations

import inspect

import numpy as np

from .. import _events
from .._dual import attach, tangents
from ..grad_mode import enable_grad, no_grad, state as _grad_state
from ..graph import node_uids
from ..tensor import Tensor, new_tensor


class TangentContext:
    """What a `jvp` rule reads: forward's arguments by name, and `result`."""

    __slots__ = ("_values", "result", "inputs")

    def __init__(self, values: dict, result: Tensor, inputs: tuple) -> None:
        self._values = values
        self.result = result
        self.inputs = inputs

    def __getattr__(self, name: str):
        try:
            return self._values[name]
        except KeyError:
            raise AttributeError(name) from None


def _param_names(cls) -> tuple:
    names = cls.__dict__.get("_jvp_params")
    if names is None:
        fixed = getattr(cls, "forward_params", None)
        names = tuple(fixed or inspect.signature(cls.forward).parameters)
        cls._jvp_params = names
    return names


class _Busy:
    # True while a rule computes a tangent: its ops read the primals (PyTorch's `self_p`),
    # so they must not push tangents of their own
    on = False


_busy = _Busy()


def has_tangent(inputs) -> bool:
    """Whether any of `inputs` (Tensors or None) carries a tangent at the open level."""
    if _busy.on:
        return False
    for t in inputs:
        if t is not None and (t._uid in tangents or _root_of(t) is not None):
            return True
    return False


# NOTE [tangents of views]
# As in PyTorch, a view's tangent is a view of its base's tangent: the view ops are "linear",
# so the tangent pushed through them is the same view of the input's tangent. A view made
# before its base had a tangent gets one when first read, the same region of the base's
# tangent (as_strided, AsStridedBackward0 when that tangent is differentiable). An in-place op
# writes its new tangent into the old one with copy_ (`write_inplace`), and `t[key] = src`
# with setitem (indexing.py), so the base's tangent follows a write through a view and its
# grad_fn is CopyBackwards or CopySlices, as PyTorch's. `unpack_dual`'s primal is a view for
# the backward pass only: it and its views are marked "fw_cut" and never read a base's tangent.


def _root_of(t: Tensor):
    """The root base of view `t` when that base has a tangent and `t` has none, else None."""
    x = t._x
    if x is None or "fw_cut" in x:
        return None
    root = x.get("view_of")
    return root if root is not None and root._uid in tangents else None


def tangent_of(t: Tensor) -> Tensor | None:
    """`t`'s tangent at the open level, a view's read from its base's (NOTE above)."""
    own = tangents.get(t._uid)
    if own is not None or not tangents:
        return own
    root = _root_of(t)
    return None if root is None else _view_of_root(t, root, tangents[root._uid])


def _view_of_root(t: Tensor, root: Tensor, root_tangent: Tensor) -> Tensor | None:
    from .views import AsStrided, geometry
    geo = geometry(t._data, root._data)
    if geo is None or root_tangent._data.shape != root._data.shape:
        return None
    prev, quiet = _enter()
    try:
        view = AsStrided.apply(root_tangent, geo[0], geo[1], geo[2])
    finally:
        _leave(prev, quiet)
    attach(t, view)
    return view


def write_inplace(t: Tensor, new: Tensor) -> None:
    """Make `new` the tangent of `t`, just written in place: copied into t's tangent, with
    grad mode as it stands, as PyTorch's `self_t.copy_(formula)` (NOTE [tangents of views])."""
    own = writable_tangent(t)
    if own is None:
        set_tangent(t, new)     # no tangent yet, or an expanded one without memory of its own
        return
    prev, quiet = _enter()
    try:
        own.copy_(new)
    finally:
        _leave(prev, quiet)


def writable_tangent(t: Tensor) -> Tensor | None:
    """The tangent an in-place write into `t` writes into: t's own, or for a view of a base
    without one, its region of the zero tangent the base gets then; None when there is no
    memory to write into (t has no tangent and is no view, or its tangent is expanded)."""
    own = tangent_of(t)
    if own is None:
        x = t._x
        root = None if x is None else x.get("view_of")
        if root is None or root._data.dtype.kind not in "fc":
            return None
        attach(root, _zeros_as(root))
        own = tangent_of(t)
    if own is None or not own._data.flags.writeable or own._data.shape != t._data.shape:
        return None
    return own


def push(cls, inputs: tuple, args: tuple, result: Tensor, extras=None, ts=None) -> None:
    """Give `result` (the output of op `cls` on `inputs`, called with `args`) its tangent.
    `ts` gives the inputs' tangents when they are not the inputs' own (an in-place op)."""
    if ts is None:
        ts = tuple(None if t is None else tangent_of(t) for t in inputs)
    if all(t is None for t in ts) or result._data.dtype.kind not in "fc":
        return
    if getattr(cls, "cuts_tangent", False):   # unpack_dual's primal (NOTE [tangents of views])
        result._x["fw_cut"] = True
        return
    out = _run(cls, inputs, args, result, extras, ts)
    if out is not None:
        set_tangent(result, out)


def push_many(cls, inputs: tuple, args: tuple, results: tuple, extras=None) -> None:
    """`push` for an op with several outputs (split, unbind, var_mean, aminmax): a linear op
    applied to the tangent gives every output's; otherwise each floating output's tangent
    comes from the backward (the double-vjp trick, one output at a time)."""
    ts = tuple(None if t is None else tangent_of(t) for t in inputs)
    if all(t is None for t in ts):
        return
    prev, quiet = _enter()
    try:
        if getattr(cls, "jvp", None) == "linear":
            outs = cls.apply(*ts, *_params(cls, args))
        else:
            outs = [from_backward(cls, inputs, args, r, extras, ts, k, results)
                    if r._data.dtype.kind in "fc" else None for k, r in enumerate(results)]
    finally:
        _leave(prev, quiet)
    for r, t in zip(results, outs):
        if t is not None:
            set_tangent(r, t)


def _enter() -> tuple:
    prev = _events.set_listener(None)
    quiet, _grad_state.quiet = _grad_state.quiet, True
    _busy.on = True
    return prev, quiet


def _leave(prev, quiet) -> None:
    _busy.on = False
    _grad_state.quiet = quiet
    _events.set_listener(prev)


def _run(cls, inputs, args, result, extras, ts) -> Tensor | None:
    records = _grad_state.enabled and (any(x is not None and x._rg for x in inputs) or
                                       any(t is not None and t._rg for t in ts))
    prev, quiet = _enter()
    try:
        rule = getattr(cls, "jvp", None)
        if rule is None:
            return from_backward(cls, inputs, args, result, extras, ts)
        if records and any(t is None for t in ts):
            return _with_zero_tangents(cls, rule, inputs, args, result, extras, ts)
        return _apply_rule(cls, rule, inputs, args, result, extras, ts)
    finally:
        _leave(prev, quiet)


def _apply_rule(cls, rule, inputs, args, result, extras, ts) -> Tensor | None:
    if rule == "linear":
        return _linear(cls, inputs, args, ts)
    if rule == "bilinear":
        return _bilinear(cls, inputs, args, ts)
    if rule == "elementwise":
        return _elementwise(cls, inputs, args, result, extras, ts[0])
    values = dict(zip(_param_names(cls), args))
    if extras:      # what forward computed besides the result (max pooling's indices)
        values.update(zip(cls.forward_extras, extras))
    ctx = TangentContext(values, result, inputs)
    return rule(ctx, *ts)


def _with_zero_tangents(cls, rule, inputs, args, result, extras, ts) -> Tensor | None:
    """A rule where some input has no tangent, when the tangent is differentiable.

    PyTorch then runs the formula whole, the missing tangent standing in as a "zero tensor"
    whose arithmetic records its nodes but whose values are skipped (x + zero is x, -0.0
    included). So the formula runs twice here: on real zeros for the graph, and without the
    missing terms for the values, which the first result then takes."""
    filled = tuple(_zeros_as(x) if t is None and x is not None and x._data.dtype.kind in "fc"
                   else t for x, t in zip(inputs, ts))
    out = _apply_rule(cls, rule, inputs, args, result, extras, filled)
    with no_grad():
        values = _apply_rule(cls, rule, inputs, args, result, extras, ts)
    if out is not None and values is not None and all(out is not t for t in filled) and \
            values._data.shape == out._data.shape:
        out._data = values._data.astype(out._data.dtype, copy=False)
    return out


def _zeros_as(t: Tensor) -> Tensor:
    """A plain tensor of zeros shaped and typed as `t` (factories.zeros_like, without the
    import: factories sits above this module)."""
    return new_tensor(np.zeros(t._data.shape, t._data.dtype))


def set_tangent(t: Tensor, tangent: Tensor) -> None:
    """Record `tangent` as `t`'s (broadcast to t's shape, as PyTorch's formulas give it)."""
    if tuple(tangent._data.shape) != tuple(t._data.shape):
        tangent = tangent.expand(t._data.shape)
    attach(t, tangent)


def from_backward(cls, inputs, args, result, extras, ts, k=0, results=None) -> Tensor | None:
    """J·t through `cls`'s backward (the double-vjp trick, see the module docstring); for an
    op with several `results`, the tangent of output `k`."""
    from ..autograd.walk import grad as _grad
    stand_ins = []
    for t, tan in zip(inputs, ts):
        s = None if t is None else new_tensor(t._data)
        if s is not None and tan is not None:
            s._rg = True
        stand_ins.append(s)
    # the node reads its saves from args: point them at the stand-ins, which require grad
    # exactly where a tangent flows (saves gated on an input's requires_grad follow that)
    swap = {id(t): s for t, s in zip(inputs, stand_ins) if t is not None}
    node_args = tuple(swap.get(id(a), a) if isinstance(a, Tensor) else a for a in args)
    first = results[0] if results else result
    with enable_grad():
        node = cls._make_node(tuple(stand_ins), new_tensor(first._data), node_args, extras)
        if node is None:
            return None
        g = _zeros_as(result).requires_grad_(True)
        if results:
            vjps = node.apply(tuple(g if j == k else None for j in range(len(results))))
        else:
            vjps = cls.backward(node, g)
        if not isinstance(vjps, (tuple, list)):
            vjps = (vjps,)
        pairs = [(v, tan) for v, tan in zip(vjps, ts)
                 if v is not None and tan is not None and v.requires_grad]
        if not pairs:
            return _zeros_as(result)
        (jt,) = _grad([v for v, _ in pairs], [g], [tan for _, tan in pairs],
                      allow_unused=True)
    return _zeros_as(result) if jt is None else jt.detach()


def _params(cls, args: tuple) -> tuple:
    return args[cls.n_inputs:]


def _linear(cls, inputs, args, ts) -> Tensor:
    """The op on the tangents, zeros standing in for a missing one (as PyTorch's where and
    its list ops fill them)."""
    if len(ts) == 1:
        return cls.apply(ts[0], *_params(cls, args))
    present = [(k, t) for k, t in enumerate(ts) if t is not None]
    if len(present) == len(ts):
        return cls.apply(*ts, *_params(cls, args))
    full = [t if t is not None else _zeros_as(x) for x, t in zip(inputs, ts)]
    return cls.apply(*full, *_params(cls, args))


def _bilinear(cls, inputs, args, ts) -> Tensor:
    """op(t0, x1) + op(x0, t1), a term left out where its tangent is None."""
    a, b = inputs
    ta, tb = ts
    params = _params(cls, args)
    left = None if ta is None else cls.apply(ta, b, *params)
    right = None if tb is None else cls.apply(a, tb, *params)
    if left is None:
        return right
    return left if right is None else left + right


def _elementwise(cls, inputs, args, result, extras, tangent) -> Tensor:
    """The op's backward with the tangent as the gradient (J is diagonal)."""
    node = object.__new__(cls.Node)
    node._uid = next(node_uids)
    node._fns, node._nrs = (True,), None      # only needs_input_grad reads the edges
    node._saved, node._versions = (cls._saver(inputs, args, result, extras) if cls._spec
                                   else ((), ()))
    node._freed, node._x, node._n_out = False, None, 1
    return cls.backward(node, tangent)[0]
