"""The Op base: one class per differentiable op, forward and backward side by side.

An op class states its PyTorch grad_fn name, what it saves, a numpy `forward` and a `backward`
written in engine Tensor ops (so `create_graph=True` differentiates it again). Declaring the
class builds its grad_fn Node subclass with that exact name and registers it in `REGISTRY`.

How to declare an op::

    class Mul(Op):
        '''out = self * other'''
        grad_fn_name = "MulBackward0"        # verbatim from PyTorch
        n_inputs = 2                         # leading Tensor arguments of forward
        saves = ("self", "other")            # -> grad_fn._saved_self, grad_fn._saved_other
        rule = "grad * other, grad * self"   # narration: the local derivative in words

        def forward(self, other):            # ndarrays (then plain params) -> ndarray
            return self * other

        def backward(ctx, grad):             # one gradient per Tensor input, None if absent
            return (sum_to(grad * ctx.other, ctx.self.shape) if ctx.needs_input_grad[0]
                    else None, ...)

        @classmethod
        def sample_inputs(cls, make, shape): # for tests/engine/test_gradcheck.py
            yield make(shape), make(shape)

    def mul(a, b): return Mul.apply(a, b)    # the public entry point calls apply directly

`forward` and `backward` are plain functions (no `self`; staticmethod is implied). The names
in `saves` are forward's parameter names, `"result"` (the output), or `<param>_sym_sizes` /
`<param>_sym_numel` (its shape / element count). Ops whose forward also computes something to
save (max's indices) list it in `forward_extras` and return `(out, (extra, ...))`. Inside
backward, saved values are `ctx.<name>`; unpacking checks the version counter and raises
PyTorch's error when the graph was freed. More knobs:

- a leading underscore (`"_self_sym_sizes"`) saves for backward without exposing it as a
  PyTorch `_saved_` attribute (PyTorch keeps such things as input metadata);
- `save_when = {"self": 1}` saves `self` only if input 1 requires grad (PyTorch skips saves
  the backward will not use, and `_saved_self` is then None);
- `float_only = True` promotes integer inputs to the default float first (exp, div, ...);
- `promotes = False` hands two inputs of different dtypes to forward as they are (the
  matrix products, which PyTorch refuses to mix, check and raise there);
- `is_view = True` makes the output share storage and version counter with input 0;
- `elementwise = True` says each output element depends only on the inputs' elements at
  the same index when no input is broadcast (the trace's local Jacobians take it as
  diagonal); a `local_rows` classmethod gives those Jacobians' rows from the saved values
  (`_local_rows.py`);
- `derivative_orders` says how many derivatives PyTorch defines (2 or more: 2; hardsigmoid
  has 1, and its derivative's NotImplemented node 0), so the gradient checks stop there;
- `sample_inputs(make, shape)` yields argument tuples for the gradient checks; `make(shape,
  low, high)` gives a float64 leaf. An op without it fails `test_gradcheck` on purpose.

Ops that need more control (several tensors in a list, several outputs) override `apply` and
finish with `cls._record(inputs, out_array, args, extras)`.

Why `apply` is generated: for an op that does not override it, declaring the class compiles
a straight-line `apply` from the declaration with `exec` (`_codegen.py`, NOTE [tiny-op fast
path]). A learner's tensors have a handful of elements, so reading the declaration on every
call would cost more than the arithmetic. `Op._record` below is the readable version that the
generated code must equal (tests/engine/test_codegen.py runs every op both ways), and
`Mul.apply_source` shows the generated text.
"""
from __future__ import annotations

import inspect

import numpy as np

from .. import _events, dtypes as _dtypes, messages
from ..grad_mode import inference_spans as _inference_spans
from ..grad_mode import is_inference_uid
from ..grad_mode import state as _grad_state
from ..graph import Node, accumulator, make_node_class, node_uids
from ..saved_hooks import hook_stack, pack_node
from ..tensor import Tensor, counter, new_tensor
from ._codegen import _KIND_ARG, _KIND_EXTRA, _KIND_NUMEL, _KIND_RESULT, _KIND_SIZES
from ._codegen import compile_apply, compile_saver
from ._tangents import has_tangent, push
from .._dual import tangents as _tangents

REGISTRY: dict[str, type] = {}


def edge(t: Tensor) -> tuple:
    """The next_functions entry for input `t`: its grad_fn, its AccumulateGrad, or None (also
    for an absent optional input, such as clamp's max=None)."""
    if t is None:
        return (None, 0)
    fn = t.grad_fn
    if fn is not None:
        return (fn, t._out_nr)
    if t._rg:
        acc = t._acc
        if acc is None:
            acc = t._acc = accumulator(t)
            if acc is None:
                return (None, 0)
        return (acc, 0)
    return (None, 0)


def _generic_apply(cls) -> bool:
    """Whether `cls` inherits the declaration-driven apply (not a hand-written one)."""
    for klass in cls.__mro__:
        if "apply" in klass.__dict__:
            fn = klass.__dict__["apply"]
            return klass is Op or getattr(fn.__func__, "_generated", False)
    return False


class OpNode(Node):
    """grad_fn of an Op: `apply` calls the op's backward with this node as ctx."""

    __slots__ = ()
    _backward = None

    @property
    def needs_input_grad(self) -> tuple:
        fns = self._fns     # NOTE [edges without tuples] in graph.py
        if len(fns) == 2:   # most backwards ask; spelled out, as a comprehension is a call
            return (fns[0] is not None, fns[1] is not None)
        return tuple([fn is not None for fn in fns])

    def apply(self, grads: tuple) -> tuple:
        return type(self)._backward(self, grads[0])


class NotImplementedNode(OpNode):
    """grad_fn of an op PyTorch gives no derivative (grad_fn_name "NotImplemented"); its
    name() is the C++ class's."""

    __slots__ = ()

    def name(self) -> str:
        return "torch::autograd::NotImplemented"


class Op:
    """Base of all ops; see the module docstring for how to declare one."""

    grad_fn_name: str = ""
    n_inputs: int = 1
    saves: tuple = ()
    forward_extras: tuple = ()
    save_when: dict = {}           # saved name -> input index: saved only if that input needs grad
    rule: str = ""
    name: str = ""                 # public name reported to listeners; default: lowercase
    float_only: bool = False       # integer inputs are promoted to the default float first
    # two inputs of different dtypes are cast to their promoted dtype before forward; the
    # matrix products, which PyTorch refuses to mix, set False and check in forward
    promotes: bool = True
    is_view: bool = False          # output shares storage and version counter with input 0
    # each output element depends only on the inputs' elements at its index when no input is
    # broadcast (binary arithmetic; a unary op says so with jvp = "elementwise")
    elementwise: bool = False
    derivative_orders: int = 2     # how often PyTorch can differentiate it (hardsigmoid: once)
    node_base: type = OpNode       # ops with several outputs use a node that takes them all
    Node: type = Node

    def __init_subclass__(cls, **kw) -> None:
        super().__init_subclass__(**kw)
        for fn in ("forward", "backward"):
            if fn in cls.__dict__ and not isinstance(cls.__dict__[fn], staticmethod):
                setattr(cls, fn, staticmethod(cls.__dict__[fn]))
        if not cls.grad_fn_name:
            return
        if cls.grad_fn_name in REGISTRY and REGISTRY[cls.grad_fn_name] is not cls:
            # two PyTorch overloads may share a node name (MaxBackward0 ...); key by class
            REGISTRY[cls.__name__] = cls
        else:
            REGISTRY[cls.grad_fn_name] = cls
        cls.name = cls.__dict__.get("name") or cls.__name__.lower()
        cls._spec = cls._save_spec()
        cls._saver = compile_saver(cls) if cls._spec else None
        kinds = [k for k, _, _ in cls._spec]
        cls.Node = make_node_class(cls.grad_fn_name, cls.node_base, cls.saves, cls.rule, {
            "_saved_names": tuple(s for s in cls.saves if not s.startswith("_")),
            "_backward": cls.backward, "_op": cls,
            "_output_saves": tuple(i for i, k in enumerate(kinds) if k == _KIND_RESULT)})
        if cls.Node.apply is OpNode.apply:
            cls.Node._direct_backward = staticmethod(cls.backward)
        if _generic_apply(cls):
            fast = compile_apply(cls, {
                "promote": _promote, "make_view": _make_view, "default_float": _default_float,
                "refuse_inference_saves": _refuse_inference_saves,
                "mark_real_inputs": mark_real_inputs,
                "forward_error": cls.forward_error})
            if fast is not None:
                fast._generated = True
                cls.apply = staticmethod(fast)

    @classmethod
    def _save_spec(cls) -> tuple:
        fixed = getattr(cls, "forward_params", None)
        sig = None if fixed else inspect.signature(cls.forward).parameters
        params = list(fixed or sig)
        # defaults of forward's trailing parameters, for saves of arguments the caller omitted
        cls._defaults = tuple(None if sig is None or sig[p].default is inspect.Parameter.empty
                              else sig[p].default for p in params)
        spec = []
        for s in cls.saves:
            if s.startswith("_") and s not in params:
                s = s[1:]   # an engine-private save of a public quantity (e.g. _self_sym_sizes)
            if s == "result":
                spec.append((_KIND_RESULT, 0))
            elif s in cls.forward_extras:
                spec.append((_KIND_EXTRA, cls.forward_extras.index(s)))
            elif s in params:
                spec.append((_KIND_ARG, params.index(s)))
            elif s.endswith("_sym_sizes") and s[:-10] in params:
                spec.append((_KIND_SIZES, params.index(s[:-10])))
            elif s.endswith("_sym_numel") and s[:-10] in params:
                spec.append((_KIND_NUMEL, params.index(s[:-10])))
            else:
                raise TypeError(f"{cls.__name__}.saves: {s!r} is not a forward parameter")
        gates = [cls.save_when.get(s, -1) for s in cls.saves]
        return tuple((k, j, g) for (k, j), g in zip(spec, gates))

    @staticmethod
    def forward(*args):  # pragma: no cover - every op defines it
        raise NotImplementedError

    @staticmethod
    def backward(ctx, grad):  # pragma: no cover
        raise NotImplementedError

    @staticmethod
    def forward_error(arrays, params, error: ValueError) -> Exception:
        """Translate numpy's complaint into PyTorch's (the broadcast error by default)."""
        from ..messages import size_mismatch
        msg = size_mismatch(arrays[0].shape, arrays[1].shape) if len(arrays) == 2 else None
        return RuntimeError(msg or str(error))

    @classmethod
    def sample_inputs(cls, make, shape):
        """Yield argument tuples for gradient checks; `make(shape, low, high)` builds inputs."""
        raise NotImplementedError(f"{cls.__name__} declares no sample_inputs for gradcheck")

    @classmethod
    def apply(cls, *args):
        """Run forward on the inputs' arrays and, when grad is on, record the grad_fn."""
        n = cls.n_inputs
        inputs = args[:n]
        # The declaration read at run time: what the generated apply of every op computes
        # straight-line (NOTE [tiny-op fast path] in _codegen.py), kept for ops whose forward
        # signature the generator does not handle, and as the reference its test compares to.
        arrays = [t._data for t in inputs]
        if n == 2 and cls.promotes and arrays[0].dtype is not arrays[1].dtype:
            arrays = _promote(inputs, arrays)
        if cls.float_only and arrays[0].dtype.kind not in "fc":
            arrays = [a.astype(_default_float()) for a in arrays]
        try:
            out = cls.forward(*arrays, *args[n:])
        except ValueError as e:
            raise cls.forward_error(arrays, args[n:], e) from None
        extras = None
        if cls.forward_extras:
            out, extras = out
        return cls._record(inputs, out, args, extras)

    @classmethod
    def _record(cls, inputs: tuple, out, args: tuple = None, extras=None) -> Tensor:
        """Wrap `out` in a Tensor and, if any input requires grad, attach the grad_fn."""
        result = new_tensor(out)
        if cls.is_view:
            _make_view(result, inputs[0])
        node = None
        if _grad_state.enabled:
            for t in inputs:
                if t._rg:
                    node = cls._make_node(inputs, result, args if args is not None else inputs,
                                          extras)
                    break
        if _tangents and has_tangent(inputs):      # forward mode (_tangents.py)
            push(cls, tuple(inputs), args if args is not None else tuple(inputs), result,
                 extras)                           # before on_op: the output has its tangent
        if _events.listener is not None and not _grad_state.quiet:
            _events.listener.on_op(cls.name, tuple(inputs), result, node)
        return result

    @classmethod
    def _make_node(cls, inputs, result, args, extras) -> Node:
        if result._data.dtype.kind not in "fc":
            return None
        node = _new(cls.Node)
        node._uid = next(node_uids)
        # spelled out for one and two inputs: a comprehension is a function call in 3.11
        if len(inputs) == 2:
            node.next_functions = (edge(inputs[0]), edge(inputs[1]))
        elif len(inputs) == 1:
            node.next_functions = (edge(inputs[0]),)
        else:
            node.next_functions = tuple([edge(t) for t in inputs])
        if cls._spec:
            node._saved, node._versions = cls._saver(inputs, args, result, extras)
            if _inference_spans:   # NOTE [inference tensors]
                _refuse_inference_saves(node._saved)
        else:
            node._saved = node._versions = ()
        node._freed = False
        node._x = None
        node._n_out = 1
        result._rg = True
        result.grad_fn = node
        if result._data.dtype.kind == "c":      # NOTE [complex gradients] in complex.py
            mark_real_inputs(node, inputs)
        if hook_stack and cls._spec:   # saved_tensors_hooks open (saved_hooks.py)
            pack_node(node)
        return node


_new = object.__new__


def mark_real_inputs(node, inputs: tuple) -> None:
    """Remember which inputs of a node with a complex result are real, so that the walk hands
    them the real part of their gradient (NOTE [complex gradients] in complex.py)."""
    real = tuple([k for k, t in enumerate(inputs)
                  if t is not None and t._data.dtype.kind != "c"])
    if real:
        node._extra("real_grads", real)


def _make_view(view: Tensor, base: Tensor) -> None:
    """Share the version counter (PyTorch views do), remember the root base the view looks
    into ("view_of", see NOTE [writes through views] in views.py) and a grad-requiring leaf
    root ("base", which refuses in-place writes)."""
    view._vc = counter(base)
    bx = base._x
    if base._rg and not _grad_state.enabled and not _grad_state.inference:
        # NOTE [views made under no_grad]: PyTorch's such view requires grad (its base does)
        # but has no edge to the graph, and refuses an in-place write once grad mode is back
        view._rg = True
        view._x = {"view_of": bx["view_of"] if bx is not None and "view_of" in bx else base,
                   "base": None, "no_grad_view": True}
        return
    if bx is not None and "view_of" in bx:
        root, leaf = bx["view_of"], bx.get("base")
    else:
        root, leaf = base, (base if base._rg and base.grad_fn is None else None)
    view._x = {"view_of": root, "base": leaf}
    if bx is not None and "fw_cut" in bx:      # NOTE [tangents of views] in _tangents.py
        view._x["fw_cut"] = True
    if root.grad_fn is not None:     # its views' grad_fns change when it is written in place
        from .views import track
        track(root, view)


def _default_float():
    from ..dtypes import get_default_dtype
    return get_default_dtype().np


def _promote(inputs, arrays) -> list:
    """Cast two arrays to PyTorch's promoted dtype (0-d tensors rank below dimensioned)."""
    from ..dtypes import of_array, result_type
    dims = [of_array(a) for a in arrays if a.ndim]
    zero = [of_array(a) for a in arrays if not a.ndim]
    target = result_type(dims, zero, []).np
    return [a if a.dtype == target else a.astype(target) for a in arrays]


def as_array(x) -> np.ndarray:
    """An ndarray for a numpy scalar or array (numpy reductions return scalars)."""
    return x if type(x) is np.ndarray else np.asarray(x)


def scalar(value, like: Tensor) -> Tensor:
    """Wrap a Python number as a 0-d Tensor in the dtype it promotes to against `like`.

    PyTorch's "wrapped number": it never decides the result type unless it is of a higher
    category (a float against an integer tensor gives the default float).
    """
    if isinstance(value, Tensor):
        return value
    if isinstance(value, np.ndarray):
        return new_tensor(value)
    if not isinstance(value, (int, float, complex, np.number, np.bool_)):
        raise TypeError(f"unsupported operand type(s): 'Tensor' and '{type(value).__name__}'")
    kind = like._data.dtype.kind
    if isinstance(value, (complex, np.complexfloating)):
        # 1j with a float64 tensor is complex128, with ints complex64
        dt = _dtypes.result_type([like.dtype], [], [value]).np
    elif kind in "fc":
        dt = like._data.dtype
    elif isinstance(value, (bool, np.bool_)):
        dt = like._data.dtype
    elif isinstance(value, (int, np.integer)):
        dt = np.int64 if kind == "b" else like._data.dtype
    elif isinstance(value, (float, np.floating)):
        dt = _default_float()
    else:
        raise TypeError(f"unsupported operand type: '{type(value).__name__}'")
    if isinstance(value, (int, np.integer)) and np.dtype(dt).kind in "iu" \
            and np.dtype(dt).itemsize < 8:
        # PyTorch casts the number to a narrow integer dtype as C does, wrapping around:
        # uint8 tensor - 2 is tensor + 254, int8 tensor + 200 is tensor - 56
        arr = np.array(value, dtype=np.int64).astype(dt)
    else:
        arr = np.array(value, dtype=dt)
    t = new_tensor(arr)
    if like._rg:    # only a node saves it, and only if `like` needs grad: no cost without
        t._x = {"wrapped_number": value}    # NOTE [wrapped numbers] in graph.py
    return t


def _refuse_inference_saves(saved: tuple) -> None:
    for v in saved:
        if isinstance(v, Tensor) and is_inference_uid(v._uid):
            raise RuntimeError(messages.INFERENCE_SAVED)


def check_inference_write(t: Tensor) -> None:
    """After an in-place write: PyTorch refuses one to an inference tensor outside inference
    mode, but only once the kernel has run, so the data has changed all the same."""
    if _inference_spans and not _grad_state.inference and is_inference_uid(t._uid):
        raise RuntimeError(messages.INFERENCE_INPLACE)


def check_overlap(t: Tensor) -> None:
    """PyTorch refuses to write in place into a tensor whose elements share memory: an
    expand()ed tensor, or the gradient a sum's backward hands a hook (zero_ and fill_ are
    allowed: every element gets the same value). numpy's broadcast arrays are read-only."""
    a = t._data
    if not a.flags.writeable and any(s == 0 and n > 1 for s, n in zip(a.strides, a.shape)):
        raise RuntimeError(messages.INTERNAL_OVERLAP)


def check_inplace(t: Tensor, view_op: str = "") -> None:
    """PyTorch refuses in-place writes to a grad-requiring leaf (or a view of one), and to the
    outputs of unbind/split/chunk made from a tensor that requires grad (`view_op` names the
    view a write like `t[0] = v` goes through: PyTorch's text names it, "Select")."""
    if _grad_state.enabled:
        if t._x is not None and t._x.get("no_grad_view"):
            raise RuntimeError(messages.NO_GRAD_VIEW_INPLACE)
        multi = t._x.get("multi") if t._x is not None else None
        if multi is not None:
            nr, name = (0, view_op) if view_op else multi
            raise RuntimeError(messages.MULTI_VIEW_INPLACE.format(nr, name))
        if t._rg and t.grad_fn is None:
            raise RuntimeError(messages.LEAF_INPLACE)
        if t._x is not None and t._x.get("base") is not None:
            raise RuntimeError(messages.VIEW_LEAF_INPLACE)


class Underivable(Op):
    """An op PyTorch gives no derivative (floor_divide, heaviside, hardsigmoid_backward ...):
    its result hangs off a NotImplemented node with edges only to the inputs that require
    grad, and each subclass's backward raises PyTorch's "derivative for aten::<op> is not
    implemented". All its inputs are tensors. (A base, not an op: each subclass names its
    grad_fn "NotImplemented" itself, which is what registers it.)"""
    node_base, derivative_orders = NotImplementedNode, 0
    rule = "not implemented (PyTorch raises)"

    @classmethod
    def _make_node(cls, inputs, result, args, extras):
        # in place (`h //= 2`), too, the node has edges only to the inputs that require grad
        wanted = tuple([t for t in inputs if t._rg])
        return super()._make_node(wanted, result, wanted, extras)

    @classmethod
    def arrays(cls, inputs: tuple) -> list:
        """The arrays forward takes (floor_divide promotes them as PyTorch does)."""
        return [t._data for t in inputs]

    @classmethod
    def apply(cls, *inputs):
        if _tangents and has_tangent(inputs):
            raise NotImplementedError(messages.FWAD_UNSUPPORTED.format(cls.name))
        arrays = cls.arrays(inputs)
        try:
            result = new_tensor(cls.forward(*arrays))
        except ValueError as e:
            raise cls.forward_error(arrays, (), e) from None
        node = None
        if _grad_state.enabled and any(t._rg for t in inputs) and \
                result._data.dtype.kind in "fc":
            node = cls._make_node(inputs, result, inputs, None)
        if _events.listener is not None and not _grad_state.quiet:
            _events.listener.on_op(cls.name, inputs, result, node)
        return result
