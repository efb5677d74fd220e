"""Custom differentiable functions (`torch.autograd.Function`) and their `ctx`.

Subclass `Function` with static `forward(ctx, *args)` and `backward(ctx, *grads)`, then call
`MyFn.apply(...)`. The output's grad_fn is a node named `<ClassName>Backward`, as in PyTorch;
`ctx.save_for_backward` saves tensors under the same freeing and version rules as built-in ops,
and through any open `saved_tensors_hooks`.
"""
from __future__ import annotations

import functools

from .. import _events, messages
from .._names import TorchNamed
from ..grad_mode import no_grad, state as _grad_state
from ..graph import Node
from ..saved_hooks import hook_stack, pack_node
from ..tensor import Tensor, batch_sizes, counter, transform_depth

_NEEDS_SETUP_CONTEXT = ("In order to use an autograd.Function with functorch transforms (vmap, "
                        "grad, jvp, jacrev, ...), it must override the setup_context "
                        "staticmethod. For more details, please see "
                        "https://pytorch.org/docs/main/notes/extending.func.html")


class BackwardCFunction(Node):
    """The grad_fn of a custom Function; it is also the `ctx` that forward and backward see."""

    __slots__ = ("to_save", "needs_input_grad", "_non_diff", "_fn_cls", "_tensor_pos",
                 "_materialize", "_out_meta", "_dirty", "_in_meta", "_in_dtypes", "__dict__")
    _rule = "the user's backward"

    def __repr__(self) -> str:
        # PyTorch builds these classes in torch.autograd.function and prints that qualified name
        return f"<{type(self)._torch_name} object at {hex(id(self))}>"

    def save_for_backward(self, *tensors) -> None:
        self.to_save = tensors

    @property
    def saved_tensors(self) -> tuple:
        return tuple(self._unpack(i) for i in range(len(self._saved)))

    def mark_non_differentiable(self, *tensors) -> None:
        self._non_diff = tensors

    def mark_dirty(self, *tensors) -> None:
        self._dirty = tensors

    def set_materialize_grads(self, value: bool) -> None:
        self._materialize = bool(value)

    def apply(self, grads: tuple) -> tuple:
        if self._materialize:
            # an output that got no gradient (unused, or marked non-differentiable) reaches
            # backward as zeros of its shape and dtype, unless set_materialize_grads(False)
            grads = tuple(_zeros(meta) if g is None and meta is not None else g
                          for g, meta in zip(grads, self._out_meta))
        out = self._fn_cls.backward(self, *grads)
        out = out if isinstance(out, tuple) else (out,)
        n = len(self.needs_input_grad)
        if len(out) > n and all(g is None for g in out[n:]):
            out = out[:n]       # trailing Nones past the inputs are dropped, as in PyTorch
        if len(out) != n:
            raise RuntimeError(f"function {self.name()} returned an incorrect number of "
                               f"gradients (expected {n}, got {len(out)})")
        # backward answers every forward argument; only the tensor ones have graph edges
        for i, g in enumerate(out):
            if g is None:
                continue
            if i not in self._tensor_pos:
                raise RuntimeError(f"function {self.name()} returned a gradient different "
                                   f"than None at position {i + 1}, but the corresponding "
                                   "forward input was not a Variable")
            if not isinstance(g, Tensor):
                raise RuntimeError("expected Variable or None (got "
                                   f"{messages.parser_type_name(g)})")
        return tuple(self._validated(k, out[i]) for k, i in enumerate(self._tensor_pos))

    def _validated(self, k: int, g):
        """The gradient for tensor input `k` as PyTorch's engine checks a node's results: one
        its input's shape broadcasts to is summed back to it, another shape is an error, and
        another dtype is cast to the input's."""
        if g is None or self.next_functions[k][0] is None:     # (PyTorch skips no edge too)
            return g
        shape, dtype = self._in_meta[k]
        gshape = g._data.shape
        if gshape != shape:
            lead = len(gshape) - len(shape)
            if lead < 0 or any(n not in (1, m) for n, m in zip(shape, gshape[lead:])):
                raise RuntimeError(f"Function {self.name()} returned an invalid gradient at "
                                   f"index {k} - got {list(gshape)} but expected shape "
                                   f"compatible with {list(shape)}")
            from ..ops._broadcast import sum_to
            g = sum_to(g, shape)
        return g if g._data.dtype == dtype else g.to(self._in_dtypes[k])


class FunctionMeta(TorchNamed):
    """Give each Function subclass its own `<Name>Backward` node class."""

    def __init__(cls, name, bases, ns):
        super().__init__(name, bases, ns)
        cls._backward_cls = type(name + "Backward", (BackwardCFunction,), {
            "__slots__": (), "_torch_name": f"torch.autograd.function.{name}Backward"})


class Function(metaclass=FunctionMeta):
    """Base for user-defined autograd functions.

    Example:
        >>> import gradstep.engine as torch
        >>> class Double(torch.autograd.Function):
        ...     @staticmethod
        ...     def forward(ctx, x):
        ...         return x * 2
        ...     @staticmethod
        ...     def backward(ctx, g):
        ...         return g * 2
        >>> x = torch.ones(2, requires_grad=True)
        >>> y = Double.apply(x)
        >>> type(y.grad_fn).__name__
        'DoubleBackward'
    """

    _torch_name = "torch.autograd.function.Function"

    def __init__(self, *args, **kwargs) -> None:
        # PyTorch still allows MyFn() but warns; calling the instance is the legacy API
        messages.warn(messages.FUNCTION_INSTANTIATED.format(type(self)), DeprecationWarning)

    def __call__(self, *args, **kwargs):
        raise RuntimeError(messages.LEGACY_FUNCTION_CALL)

    @staticmethod
    def forward(ctx, *args, **kwargs):
        raise NotImplementedError("You must implement the forward function for custom "
                                  "autograd.Function.")

    @staticmethod
    def setup_context(ctx, inputs: tuple, output):
        raise NotImplementedError("setup_context is not implemented.")

    @staticmethod
    def backward(ctx, *grads):
        raise NotImplementedError("You must implement either the backward or vjp method for "
                                  "your custom autograd.Function to use it with backward "
                                  "mode AD.")

    @classmethod
    def apply(cls, *args, **kwargs):
        listener = _events.listener
        if listener is None:
            return cls._apply(args, kwargs)
        # a listener (the tracer) groups what this Function makes, as it does a module's ops
        listener.on_module_enter(cls)
        try:
            return cls._apply(args, kwargs)
        finally:
            listener.on_module_exit(cls)

    @classmethod
    def _apply(cls, args: tuple, kwargs: dict):
        from ..ops._op import edge
        if (batch_sizes or transform_depth[0]) and cls.setup_context is Function.setup_context:
            raise RuntimeError(_NEEDS_SETUP_CONTEXT)
        ctx = cls._backward_cls()
        ctx._fn_cls = cls
        ctx.to_save = ()
        ctx._non_diff = ()
        ctx._dirty = ()
        ctx._materialize = True
        tensors = [a for a in args if isinstance(a, Tensor)]
        ctx.needs_input_grad = tuple(isinstance(a, Tensor) and a._rg for a in args)
        prev = _grad_state.enabled
        _grad_state.enabled = False
        try:
            if cls.setup_context is Function.setup_context:
                out = cls.forward(ctx, *args, **kwargs)
            else:       # the newer style: forward without ctx, then setup_context fills it
                out = cls.forward(*args, **kwargs)
                cls.setup_context(ctx, args, out)
        finally:
            _grad_state.enabled = prev
        record = prev and any(t._rg for t in tensors)
        outs = list(out) if isinstance(out, tuple) else [out]
        for t in ctx._dirty:
            # modified in place by forward: it becomes this node's output itself
            if record and t._rg and t.grad_fn is None:
                raise RuntimeError("a leaf Variable that requires grad has been used in an "
                                   "in-place operation.")
            counter(t)[0] += 1
        if record:
            for i, t in enumerate(ctx.to_save):
                if t is not None and not isinstance(t, Tensor):
                    raise TypeError(f"save_for_backward can only save variables, but argument "
                                    f"{i} is of type {type(t).__name__}")
            ctx._tensor_pos = tuple(i for i, a in enumerate(args) if isinstance(a, Tensor))
            ctx.next_functions = tuple(edge(args[i]) for i in ctx._tensor_pos)
            ctx._in_meta = tuple((args[i]._data.shape, args[i]._data.dtype)
                                 for i in ctx._tensor_pos)
            ctx._in_dtypes = tuple(args[i].dtype for i in ctx._tensor_pos)
            ctx._saved = tuple(ctx.to_save)
            ctx._versions = tuple(t._vc[0] if isinstance(t, Tensor) else None
                                  for t in ctx._saved)
            ctx._n_out = len(outs)
            ctx._out_meta = tuple((o.shape, o.dtype) if isinstance(o, Tensor) else None
                                  for o in outs)
            for i, o in enumerate(outs):
                if isinstance(o, Tensor) and not any(o is nd for nd in ctx._non_diff):
                    dirty = any(o is d for d in ctx._dirty)
                    if (o.grad_fn is not None or o._rg) and not dirty:
                        o = outs[i] = _fresh(o)
                    o.grad_fn, o._rg, o._out_nr = ctx, True, i
        if record and hook_stack:
            # saved_tensors_hooks see save_for_backward's tensors once the outputs are made,
            # as PyTorch saves them then
            pack_node(ctx, unpack_up_front=False)
        if _events.listener is not None:
            for o in outs:
                if isinstance(o, Tensor):
                    _events.listener.on_op(cls.__name__, tuple(tensors), o,
                                           ctx if record else None)
        return tuple(outs) if isinstance(out, tuple) else outs[0]


def _zeros(meta: tuple) -> Tensor:
    from ..factories import zeros
    shape, dtype = meta
    return zeros(shape, dtype=dtype)


def _fresh(t: Tensor) -> Tensor:
    from ..tensor import new_tensor
    n = new_tensor(t._data)
    n._vc = counter(t)
    return n


def once_differentiable(fn):
    """Decorate a Function's backward that is not itself differentiable: it runs under
    no_grad, so even with create_graph=True its gradients record no graph.

    (PyTorch also attaches a DelayedError node when the incoming gradients require grad, so a
    later backward names the decorator; here such gradients simply do not require grad.)
    """
    @functools.wraps(fn)
    def wrapper(ctx, *args):
        with no_grad():
            return fn(ctx, *args)
    return wrapper


__all__ = ["Function", "once_differentiable"]
