"""Straight-line code generated once per op class from its declaration (the op's fast path).

An op is declared as data (`n_inputs`, `saves`, `save_when`, `float_only`, `is_view` ...) plus
a numpy `forward` and a Tensor-op `backward` (see `_op.py`). Interpreting that declaration on
every call costs more than the arithmetic on a learner's 3-element tensor, so each class gets
its `apply` (and the saver used by hand-written `apply`s) compiled from it: one function
with no loops, no comprehensions and no helper calls on the common path.

`Mul.apply_source` holds the generated text of `Mul.apply`, for reading and debugging.

# NOTE [tiny-op fast path]
# What one op costs is Python overhead: every call, comprehension (a call in 3.11), tuple and
# attribute lookup counts at ~30-80 ns, against ~250 ns for numpy's own tiny ufunc. The
# generated apply therefore inlines what used to be helper calls: wrapping the result
# (`new_tensor`), the grad_fn edges (`edge()`), the saves and their versions, and the node's
# fields. Its behaviour must equal `Op._record`'s, which hand-written `apply`s still use;
# tests/engine/test_codegen.py runs every registered op both ways.
"""
from __future__ import annotations

import inspect

import numpy as np

from .. import _events
from .._dual import tangents
from ..foreign_operands import _NUMBERS
from ..grad_mode import inference_spans, state
from ..saved_hooks import hook_stack, pack_node
from ..graph import accumulator, node_uids
from ..tensor import VERSION_0, Tensor, tensor_uids
from ._tangents import has_tangent, push

_KIND_ARG, _KIND_RESULT, _KIND_SIZES, _KIND_NUMEL, _KIND_EXTRA = range(5)


def _version(v):
    return v._vc[0] if isinstance(v, Tensor) else None


def _value_exprs(cls, i: int, kind: int, j: int, gate: int, arg, n: int) -> tuple:
    """(value expression, version expression) of saved value `i`; `arg(j)` names argument j."""
    if kind == _KIND_ARG:
        expr = arg(j)
        # an input is always a Tensor; a plain parameter (alpha, dim) may be anything
        ver = f"v{i}._vc[0]" if j < n else f"(v{i}._vc[0] if isinstance(v{i}, Tensor) else None)"
    elif kind == _KIND_RESULT:
        expr, ver = "result", f"v{i}._vc[0]"
    elif kind == _KIND_SIZES:
        expr, ver = f"{arg(j)}._data.shape", "None"
    elif kind == _KIND_NUMEL:
        expr, ver = f"{arg(j)}._data.size", "None"
    else:
        expr, ver = f"extras[{j}]", f"version(v{i})"
    if gate >= 0:   # PyTorch skips saves the backward will not need
        expr = f"({expr} if {arg(gate)}._rg else None)"
        ver = f"(None if v{i} is None else {ver})"
    return expr, ver


def _save_lines(cls, arg, n: int, indent: str) -> tuple:
    values, versions, maybe, inputs = [], [], [], False
    for i, (kind, j, gate) in enumerate(cls._spec):
        expr, ver = _value_exprs(cls, i, kind, j, gate, arg, n)
        values.append(f"{indent}v{i} = {expr}")
        versions.append(ver)
        if (kind == _KIND_ARG and j >= n) or kind == _KIND_EXTRA:
            maybe.append(f"isinstance(v{i}, Tensor)")     # alpha: a number, almost always
        elif kind in (_KIND_ARG, _KIND_RESULT):
            inputs = True
    names = ", ".join(f"v{i}" for i in range(len(values)))
    if all(v == "None" for v in versions):
        # no tensor among the saves (sizes, alpha): nothing for free() or the version check
        return values, f"({names},)", "()"
    if not inputs:
        # only a parameter might be a tensor: when none is, () as above (the backward walk
        # then skips free() for the node, as for add's sizes and alpha)
        return values, f"({names},)", f"(({', '.join(versions)},) if {' or '.join(maybe)} else ())"
    return values, f"({names},)", f"({', '.join(versions)},)"


def compile_saver(cls) -> object:
    """`save(inputs, args, result, extras) -> (saved values, their versions)` for `cls`, used
    by the hand-written `apply`s that finish through `Op._record`."""
    def arg(j):
        if j < len(cls._defaults) and cls._defaults[j] is not None:
            return f"(args[{j}] if len(args) > {j} else defaults[{j}])"
        return f"args[{j}]"
    # hand-written applies pass args that need not line up with the inputs: check each one
    values, saved, versions = _save_lines(cls, arg, 0, "    ")
    src = ("def save(inputs, args, result, extras):\n" + "\n".join(values) +
           f"\n    return {saved}, {versions}\n")
    scope = {"defaults": cls._defaults, "version": _version, "Tensor": Tensor}
    exec(compile(src, f"<saves of {cls.__name__}>", "exec"), scope)
    return staticmethod(scope["save"])


def _signature(cls) -> list | None:
    """forward's positional parameters as (name, has default, default), or None when it takes
    *args, keywords only or **kwargs (then the generic apply serves)."""
    fixed = getattr(cls, "forward_params", None)
    if fixed:
        return [(p, False, None) for p in fixed]
    out = []
    for p in inspect.signature(cls.forward).parameters.values():
        if p.kind not in (p.POSITIONAL_ONLY, p.POSITIONAL_OR_KEYWORD):
            return None
        out.append((p.name, p.default is not p.empty, p.default))
    return out


def _edge_lines(k: int) -> list:
    """`e{k}` and `r{k}`, the next_functions entry of input `i{k}` (what `_op.edge` computes)
    as the node keeps it (NOTE [edges without tuples] in graph.py)."""
    return [
        f"        e{k} = i{k}.grad_fn",
        f"        if e{k} is not None:",
        f"            r{k} = i{k}._out_nr",
        f"        elif i{k}._rg:",
        f"            r{k} = 0",
        f"            e{k} = i{k}._acc",
        f"            if e{k} is None:",
        f"                e{k} = i{k}._acc = accumulator(i{k})",
        "        else:",
        f"            r{k} = 0",
    ]


def compile_apply(cls, helpers: dict):
    """The generated `apply` of `cls` (a plain function), or None if its forward's signature
    is not one the generator handles. `helpers` supplies `_op.py`'s promote, make_view,
    refuse_inference_saves, forward_error, default_float and mark_real_inputs."""
    params = _signature(cls)
    n = cls.n_inputs
    if params is None or len(params) < n:
        return None
    inputs = [f"i{k}" for k in range(n)]
    pnames, defaults, sig = [], {}, list(inputs)
    for j, (_name, has_default, default) in enumerate(params[n:], start=n):
        pnames.append(f"p{j}")
        if has_default:
            defaults[f"D{j}"] = default
            sig.append(f"p{j}=D{j}")
        else:
            sig.append(f"p{j}")

    def arg(j):
        return f"i{j}" if j < n else f"p{j}"

    arrays = [f"x{k}" for k in range(n)]
    body = [f"def apply({', '.join(sig)}):"]
    body += [f"    x{k} = i{k}._data" for k in range(n)]
    if n == 2 and cls.promotes:
        body += ["    if x0.dtype is not x1.dtype:",
                 "        x0, x1 = promote((i0, i1), [x0, x1])"]
    if cls.float_only:
        body += ["    if x0.dtype.kind not in 'fc':",
                 f"        {', '.join(arrays)}{',' if n == 1 else ''} = "
                 f"[a.astype(default_float()) for a in ({', '.join(arrays)},)]"]
    call_args = ", ".join(arrays + pnames)
    body += ["    try:",
             f"        out = forward({call_args})",
             "    except ValueError as e:",
             f"        raise forward_error([{', '.join(arrays)}], "
             f"({''.join(p + ', ' for p in pnames)}), e) from None"]
    if cls.forward_extras:   # only saves of kind _KIND_EXTRA read `extras`
        body += ["    out, extras = out"]
    body += ["    if type(out) is not ndarray:",
             "        out = asarray(out)",
             # new_tensor, inlined
             "    result = new(Tensor)",
             "    result._data = out",
             "    result._rg = False",
             "    result.grad_fn = None",
             "    result._grad = None",
             "    result._vc = VERSION_0",   # NOTE [version counters made on first need]
             "    result._uid = next(tensor_uids)",
             "    result._out_nr = 0",
             "    result._acc = None",
             "    result._x = None"]
    if cls.is_view:
        body += ["    make_view(result, i0)"]
    any_rg = " or ".join(f"i{k}._rg" for k in range(n))
    # Only a floating or complex result gets a node. An input that requires grad is one, and
    # so is x0 when i0 is (promotion and float_only casts keep it so): a result of x0's very
    # dtype needs no further look (`is` costs a third of reading `.kind`).
    floating = ("(out.dtype is x0.dtype and i0._rg or out.dtype.kind in 'fc')" if n > 1
                else "(out.dtype is x0.dtype or out.dtype.kind in 'fc')")
    body += ["    node = None",
             # grad mode is a thread-local read (~3x a module global): ask it last, as most
             # ops inside a plain backward have no input that requires grad
             f"    if ({any_rg}) and state.enabled and {floating}:",
             "        node = new(Node)",
             "        node._uid = next(node_uids)"]
    for k in range(n):
        body += _edge_lines(k)
    body += [f"        node._fns = ({', '.join(f'e{k}' for k in range(n))},)",
             f"        node._nrs = ({', '.join(f'r{k}' for k in range(n))},) "
             f"if {' or '.join(f'r{k}' for k in range(n))} else None"]
    if cls._spec:
        values, saved, versions = _save_lines(cls, arg, n, "        ")
        body += values
        body += [f"        node._saved = {saved}",
                 f"        node._versions = {versions}",
                 "        if inference_spans:   # NOTE [inference tensors]",
                 "            refuse_inference_saves(node._saved)"]
    else:
        body += ["        node._saved = node._versions = ()"]
    body += ["        node._freed = False",
             "        node._x = None",
             "        node._n_out = 1",
             "        result._rg = True",
             "        result.grad_fn = node",
             # NOTE [complex gradients] in complex.py: only read when a node is made
             "        if out.dtype.kind == 'c':",
             f"            mark_real_inputs(node, ({', '.join(inputs)},))"]
    if cls._spec:
        body += ["        if hook_stack:   # saved_tensors_hooks open (saved_hooks.py)",
                 "            pack_node(node)"]
    # forward mode: one truth test of an empty dict unless a dual tensor exists. The tangent
    # is pushed before the op is reported, so a listener sees the output with its tangent.
    body += ["    if TANGENTS:",
             f"        if has_tangent(({', '.join(inputs)},)):",
             f"            push(CLS, ({', '.join(inputs)},), "
             f"({', '.join(inputs + pnames)},), result, "
             f"{'extras' if cls.forward_extras else 'None'})",
             "    if events.listener is not None and not state.quiet:",
             f"        events.listener.on_op(NAME, ({', '.join(inputs)},), result, node)",
             "    return result"]
    src = "\n".join(body) + "\n"
    scope = {"ndarray": np.ndarray, "asarray": np.asarray, "new": object.__new__,
             "Tensor": Tensor, "tensor_uids": tensor_uids, "node_uids": node_uids,
             "VERSION_0": VERSION_0,
             "accumulator": accumulator, "state": state,
             "events": _events, "inference_spans": inference_spans, "version": _version,
             "hook_stack": hook_stack, "pack_node": pack_node,
             "forward": cls.forward, "Node": cls.Node, "NAME": cls.name, **defaults,
             "TANGENTS": tangents, "has_tangent": has_tangent, "push": push, "CLS": cls,
             **helpers}
    exec(compile(src, f"<apply of {cls.__name__}>", "exec"), scope)
    fn = scope["apply"]
    fn.__doc__ = f"Run {cls.__name__}.forward and record {cls.grad_fn_name} (generated)."
    cls._apply_scope = scope
    cls.apply_source = src
    return fn


def compile_operator(cls, name: str, fixed: tuple = (), refuse: str = "", fallback=None):
    """`cls`'s generated apply as a Tensor method of its own (`Tensor.__mul__` is Mul's,
    `Tensor.sin` is Sin's): the same code, so `y * c` runs one Python frame instead of a
    delegating method's and apply's (NOTE [tiny-op fast path]).

    For two inputs, a right operand that is not a Tensor is wrapped first, as the public
    function's `_pair` wraps it (`scalar`: PyTorch's wrapped number, or its TypeError);
    operands for which the expression `refuse` (over i0, i1) holds go to `fallback`, the
    public function, which raises PyTorch's error (sub's bools). `fixed` fills forward's
    parameters after the inputs (add's alpha=1). A binary operator answers NotImplemented for an
    operand that is neither a tensor nor a number (a numpy array, a list, None, a string), as
    PyTorch's do, so that Python raises its own TypeError or numpy computes the result
    (engine/foreign_operands.py)."""
    n = cls.n_inputs
    params = "".join(f", p{n + k}" for k in range(len(fixed)))
    header, body = cls.apply_source.split("\n", 1)
    if getattr(cls, "_apply_scope", None) is None or n not in (1, 2) or \
            header != f"def apply({', '.join(f'i{k}' for k in range(n))}{params}):":
        raise TypeError(f"{cls.__name__} has no generated apply of that signature")
    lines = [f"def {name}({', '.join(f'i{k}' for k in range(n))}):"]
    if n == 2:
        lines += ["    if not isinstance(i1, Tensor):",
                  "        if not isinstance(i1, NUMBERS):",
                  "            return NotImplemented",
                  "        i1 = wrap(i1, i0)"]
    if refuse:
        lines += [f"    if {refuse}:",
                  "        return fallback(i0, i1)"]
    lines += [f"    p{n + k} = FIXED[{k}]" for k in range(len(fixed))]
    scope = dict(cls._apply_scope, fallback=fallback, FIXED=tuple(fixed), wrap=_wrap(),
                 NUMBERS=_NUMBERS)
    exec(compile("\n".join(lines) + "\n" + body, f"<{name} of {cls.__name__}>", "exec"),
         scope)
    fn = scope[name]
    fn.__qualname__ = f"TensorOps.{name}"     # what a wrong call's TypeError names, as before
    fn.__module__ = cls.__module__
    fn.__doc__ = f"Tensor.{name}: {cls.__name__}.apply (generated)."
    return fn


def _wrap():
    from ._op import scalar     # _op imports this module
    return scalar
