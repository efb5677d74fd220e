"""Graph nodes: what `tensor.grad_fn` holds (PyTorch's `torch.autograd.graph.Node`).

Every differentiable op result points at a Node whose `next_functions` are `(node, output_nr)`
pairs, one per tensor input, in argument order (`(None, 0)` for inputs that need no gradient).
A leaf that requires grad is reached through its `AccumulateGrad` node (`.variable` is the
leaf). Nodes keep their saved tensors until a backward pass frees them; see
`# NOTE [saved tensors and retain_graph]` in `engine/autograd/walk.py`.
"""
from __future__ import annotations

import itertools

from . import messages
from ._names import TorchNamed
from .saved_hooks import Packed

node_uids = itertools.count()


class _Freed:
    """Stands in for a saved tensor after the graph was freed."""

    __slots__ = ()

    def __repr__(self) -> str:
        return "<freed>"


FREED = _Freed()


class RemovableHandle(metaclass=TorchNamed):
    """What `register_hook` returns; `.remove()` unregisters the hook."""

    __slots__ = ("_hooks", "_fn")
    _torch_name = "torch.utils.hooks.RemovableHandle"

    def __repr__(self) -> str:
        return f"<{self._torch_name} object at {hex(id(self))}>"

    def __init__(self, hooks: list, fn) -> None:
        self._hooks, self._fn = hooks, fn

    def remove(self) -> None:
        if self._fn in self._hooks:
            self._hooks.remove(self._fn)


class Node(metaclass=TorchNamed):
    """Base of every grad_fn class. Subclasses are built per op with PyTorch's class name.

    Attributes: `next_functions` (tuple of (Node|None, int), kept as `_fns` and `_nrs`: see
    NOTE [edges without tuples]), `metadata` (dict), `_uid`, `_freed`, `_saved` (saved values
    in `_saved_names` order; tensors become FREED when freed).

    Example:
        >>> import gradstep.engine as torch
        >>> x = torch.ones(2, requires_grad=True)
        >>> y = x * 2
        >>> y.grad_fn.name(), type(y.grad_fn.next_functions[0][0]).__name__
        ('MulBackward0', 'AccumulateGrad')
    """

    # rarely used state (hooks, metadata) lives in the `_x` dict so creating a node stays cheap
    __slots__ = ("_uid", "_fns", "_nrs", "_saved", "_versions", "_freed", "_x", "_n_out",
                 "__weakref__")

    _saved_names: tuple = ()
    _rule: str = ""
    # `backward(node, grad)` of a one-output op node whose apply adds nothing to it, which the
    # walk may call directly (see engine/ops/_op.py); None for every other kind of node
    _direct_backward = None
    _output_saves: tuple = ()      # indices into _saved that hold this node's own output

    def __init__(self) -> None:
        self._uid = next(node_uids)
        self._fns = ()
        self._nrs = None
        self._saved = ()
        self._versions = ()
        self._freed = False
        self._x = None
        self._n_out = 1

    def __dir__(self):
        # the engine's own `_saved` and `_saved_names` would otherwise show among PyTorch's
        # `_saved_<name>` accessors to a learner listing them with dir()
        return [n for n in super().__dir__() if n not in ("_saved", "_saved_names")]

    def name(self) -> str:
        """PyTorch's node name, e.g. ``"MulBackward0"``."""
        return type(self).__name__

    # NOTE [edges without tuples]
    # PyTorch's next_functions is a tuple of (node, input_nr) pairs, built afresh on every read
    # (its nodes are C++ and keep the edges in a vector). Kept as such a tuple here, each node
    # would hold one tuple per edge plus the outer one, all alive as long as the graph: objects
    # Python's cyclic collector counts and visits again in each older generation, for every op
    # of a long chain. A node keeps instead `_fns`, the next nodes (None where an input needs
    # no gradient), and `_nrs`, their input numbers, or None when all are 0 (every op but the
    # outputs of split, unbind, max with indices ...). The walk reads the two directly.
    @property
    def next_functions(self) -> tuple:
        nrs = self._nrs
        if nrs is None:
            return tuple([(fn, 0) for fn in self._fns])
        return tuple(zip(self._fns, nrs))

    @next_functions.setter
    def next_functions(self, edges) -> None:
        edges = tuple(edges)
        self._fns = tuple([fn for fn, _ in edges])
        nrs = tuple([nr for _, nr in edges])
        self._nrs = nrs if any(nrs) else None

    def _extra(self, key: str, default):
        if self._x is None:
            self._x = {}
        return self._x.setdefault(key, default)

    @property
    def metadata(self) -> dict:
        return self._extra("metadata", {})

    def register_hook(self, fn) -> RemovableHandle:
        """`fn(grad_inputs, grad_outputs)` runs after this node computed its gradients.

        PyTorch naming: grad_inputs are the gradients this node produces (one per
        next_functions entry); grad_outputs the ones it received. A non-None return
        replaces grad_inputs.
        """
        hooks = self._extra("hooks", [])
        hooks.append(fn)
        return RemovableHandle(hooks, fn)

    def register_prehook(self, fn) -> RemovableHandle:
        """`fn(grad_outputs)` runs before this node; a non-None return replaces them."""
        hooks = self._extra("prehooks", [])
        hooks.append(fn)
        return RemovableHandle(hooks, fn)

    def free(self) -> None:
        """Drop saved tensors (keep sizes and flags), as PyTorch does after backward."""
        # a saved value is a tensor exactly when a version was recorded for it; count() asks
        # whether there is one without a Python-level loop (add saves only sizes and alpha)
        versions = self._versions
        if versions and versions.count(None) != len(versions):
            # a plain loop: a comprehension over zip() costs 2.5x as much for 2-4 values
            saved, i = list(self._saved), 0
            for ver in versions:
                if ver is not None:
                    saved[i] = FREED
                i += 1
            self._saved = tuple(saved)
        self._freed = True

    def _unpack(self, i: int):
        """Saved value `i`, checking that it was neither freed nor modified in place."""
        v = self._saved[i]
        if v is FREED:
            raise RuntimeError(messages.BACKWARD_TWICE)
        if type(v) is Packed:     # NOTE [packed saved tensors] in saved_hooks.py
            return v.get()
        versions = self._versions
        if versions and versions[i] is not None and v._vc[0] != versions[i]:
            own = i in self._output_saves
            raise RuntimeError(messages.modified_inplace(v, versions[i], self if own else None))
        return v

    def apply(self, grads: tuple) -> tuple:  # pragma: no cover - overridden
        raise NotImplementedError(f"{self.name()} has no backward")

    def __call__(self, *grads):
        # calling a grad_fn by hand, as PyTorch: one gradient comes back bare, several as a tuple
        out = self.apply(grads)
        return out[0] if len(out) == 1 else out

    def __repr__(self) -> str:
        return f"<{type(self).__name__} object at {hex(id(self))}>"


def _saved_property(i: int) -> property:
    def unpack(node):
        # the check of Node._unpack inline (a backward reads its saved values on every run);
        # _unpack itself raises PyTorch's error when the value was freed or modified
        v = node._saved[i]
        versions = node._versions
        if v is FREED or (versions and versions[i] is not None and v._vc[0] != versions[i]):
            return node._unpack(i)
        return v
    return property(unpack, doc="a value saved for backward")


# NOTE [wrapped numbers]
# `x * 3` computes with 3 in x's dtype, but PyTorch saves the number as it came: a 0-d int64
# (float64 for a float, bool for a bool) tensor, so `grad_fn._saved_other` prints tensor(3).
# `ops._op.scalar` marks the tensor it wraps a number in with {"wrapped_number": 3} in `_x`;
# the public `_saved_<name>` accessors below rebuild PyTorch's tensor from it when asked,
# so the op itself (and its backward, which reads `ctx.other`) pays nothing more.
def _public_saved_property(i: int) -> property:
    def unpack(node):
        v = node._saved[i]
        versions = node._versions
        if v is FREED or (versions and versions[i] is not None and v._vc[0] != versions[i]):
            return node._unpack(i)
        x = v._x if versions and versions[i] is not None else None    # tensors only
        if x is not None and "wrapped_number" in x:
            return _wrapped_number(x)
        if i in node._output_saves and versions and versions[i] is not None:    # a tensor
            return _output_as_unpacked(v)
        return v
    return property(unpack, doc="a value saved for backward, as PyTorch shows it")


def _output_as_unpacked(v):
    """A node's own output, as PyTorch unpacks it: a new tensor object on each access, with the
    output's data, version counter and grad_fn (PyTorch saves an output without its grad_fn to
    avoid a reference cycle and puts it back when asked, so `y is y.grad_fn._saved_result` is
    False, as the autograd notes show)."""
    from .tensor import new_tensor
    out = new_tensor(v._data)
    out._vc, out._rg, out.grad_fn, out._out_nr = v._vc, v._rg, v.grad_fn, v._out_nr
    return out


def _wrapped_number(x: dict):
    """The 0-d tensor PyTorch keeps for a wrapped Python number (one object, as PyTorch's)."""
    if "as_saved" not in x:
        import numpy as np
        from .tensor import new_tensor
        value = x["wrapped_number"]
        kind = np.asarray(value).dtype.kind
        dtype = np.bool_ if kind == "b" else np.int64 if kind in "iu" else np.float64
        x["as_saved"] = new_tensor(np.array(value, dtype=dtype))
    return x["as_saved"]


# NOTE [saved integers]
# PyTorch's generated accessors read an int (or SymInt, or a list of them) saved by a node as
# an unsigned 64-bit number: a dim of -1 prints 18446744073709551615. The saved names below are
# the ones PyTorch declares as integers; their accessors show the value so (and a dim as the
# user gave it, NOTE [dims as given] in ops/_dims.py). Scalars (alpha, min, exponent) stay signed.
INT_SAVES = frozenset(("dim", "dim0", "dim1", "dim2", "dims", "diagonal", "offset", "index",
                       "start", "end", "step", "shifts", "split_size", "size", "repeats",
                       "storage_offset", "stride"))


def _int_saved_property(i: int) -> property:
    def unpack(node):
        v = node._saved[i]
        if v is FREED or (node._versions and node._versions[i] is not None):
            return node._unpack(i)         # a tensor (gather's index), or freed
        v = getattr(v, "given", v)
        if isinstance(v, tuple):
            return tuple([d + 2 ** 64 if isinstance(d, int) and d < 0 else d for d in v])
        return v + 2 ** 64 if isinstance(v, int) and v < 0 else v
    return property(unpack, doc="an integer saved for backward, read back as PyTorch does")


def make_node_class(name: str, base: type, saved_names: tuple, rule: str, extra: dict) -> type:
    """Build the grad_fn class `name`, with `_saved_<n>` (and ctx-style `<n>`) accessors."""
    # PyTorch's node classes are C types in no module: type(fn) prints <class 'MulBackward0'>
    ns = {"__slots__": (), "_saved_names": tuple(saved_names), "_rule": rule,
          "_torch_name": name}
    for i, n in enumerate(saved_names):
        # names starting with "_" are engine-private (PyTorch keeps them as input metadata)
        if not n.startswith("_"):
            ns["_saved_" + n] = (_int_saved_property if n in INT_SAVES
                                 else _public_saved_property)(i)
        ns[n] = _saved_property(i)
    ns.update(extra)
    return type(name, (base,), ns)


class AccumulateGrad(Node):
    """Sink of a leaf's gradient: adds it into `variable.grad`.

    Example:
        >>> import gradstep.engine as torch
        >>> w = torch.ones(2, requires_grad=True)
        >>> (w * 3).grad_fn.next_functions[0][0].variable is w
        True
    """

    __slots__ = ("variable",)
    _torch_name = "AccumulateGrad"
    _rule = "grad += incoming"

    def __init__(self, variable) -> None:
        Node.__init__(self)
        self.variable = variable

    def name(self) -> str:
        return "torch::autograd::AccumulateGrad"


def accumulator(t) -> AccumulateGrad | None:
    """A new AccumulateGrad for leaf `t`, or None for a view made under no_grad (NOTE [views
    made under no_grad] in ops/_op.py: it requires grad but gradients do not reach it)."""
    x = t._x
    return None if x is not None and x.get("no_grad_view") else AccumulateGrad(t)
