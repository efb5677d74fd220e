"""The backward pass: an iterative walk over grad_fn nodes (PyTorch's autograd engine).

`backward` accumulates into leaves' `.grad`; `grad` returns the gradients instead. Both seed the
roots, count each node's incoming edges, and run nodes whose count reached zero, the most
recently created first (PyTorch's order; AccumulateGrad nodes run as soon as they are ready).

# NOTE [saved tensors and retain_graph]
# Ops save the tensors their backward needs on their node (`node._saved`). When a pass runs
# with retain_graph=False (the default, unless create_graph=True), each node drops its saved
# tensors right after it has run (`Node.free()`; sizes and flags stay), and a second pass
# through it raises PyTorch's "Trying to backward through the graph a second time" error on
# the first unpack. Nodes that saved no tensor (add, sum) can be walked again, as in PyTorch.
# Saved tensors also record their version; unpacking one that was modified in place since
# raises the version-counter error (graph.Node._unpack).
"""
from __future__ import annotations

from heapq import heappop, heappush
from itertools import repeat

import numpy as np

from .. import _events, messages
from ..grad_mode import state as _grad_state
from ..graph import FREED, AccumulateGrad
from ..ops._broadcast import first_grad
from ..ops._op import edge
from ..tensor import Tensor, counter, new_tensor
from . import anomaly
from .order import collect


def _seeds(roots: tuple, grads, create_graph: bool) -> tuple:
    """Check the roots and build one seed gradient per root (ones for a scalar), in PyTorch's
    order: each (root, gradient) pair (zip: extra gradients are ignored), then the count, then
    whether each root requires grad."""
    if grads is None or isinstance(grads, Tensor):
        grads = (grads,) * len(roots) if grads is None else (grads,)
    out = []
    for i, (t, g) in enumerate(zip(roots, tuple(grads))):
        if g is None:
            if t._rg and t._data.size != 1:
                raise RuntimeError(messages.IMPLICIT_SCALAR)
            if t._rg and t._data.dtype.kind == "c":
                raise RuntimeError(messages.IMPLICIT_REAL.format(t.dtype))
            g = np.empty(t._data.shape, t._data.dtype)    # ones_like's result, without its
            g.fill(1)                                       # Python layer (2x the cost)
            g = new_tensor(g)
        elif not isinstance(g, Tensor):
            raise TypeError("gradients can be either Tensors or None, but got "
                            f"{type(g).__name__}")
        elif g._data.shape != t._data.shape:
            raise RuntimeError(f"Mismatch in shape: grad_output[{i}] has a shape of "
                               f"{g.shape!r} and output[{i}] has a shape of {t.shape!r}.")
        elif g._data.dtype != t._data.dtype:    # PyTorch casts a seed to its root's dtype
            g = g.to(t.dtype)
        out.append(g)
    if len(out) != len(roots):
        raise RuntimeError(f"got {len(roots)} tensors and {len(out)} gradients")
    for i, t in enumerate(roots):
        if not t._rg:
            raise RuntimeError(messages.NO_GRAD_FN.format(i))
    return tuple(out)


def run(roots: tuple, seeds: tuple, retain_graph: bool, create_graph: bool, targets=None,
        capture=None, accumulate: bool = True) -> dict:
    """Walk the graph from `roots`. `targets` (set of nodes) restricts the pass; `capture`
    maps (node, output_nr) to a key whose incoming gradient is returned; `accumulate=False`
    keeps leaves' `.grad` untouched (autograd.grad)."""
    edges = [edge(t) for t in roots]
    buffers: dict = {}
    for (fn, nr), g in zip(edges, seeds):
        if fn is not None:
            _add_to(buffers, fn, nr, g)
    deps, useful = collect([fn for fn, _ in edges], targets)
    heap: list = []
    for fn in buffers:
        if not deps.get(fn):
            heappush(heap, _priority(fn))
    results: dict = {}
    freed = []
    listening = _events.listener is not None
    prev, prev_quiet = _grad_state.enabled, _grad_state.quiet
    _grad_state.enabled = create_graph
    _grad_state.quiet = not create_graph
    nxt = nxt_grads = None      # NOTE [the next node without the heap]
    try:
        while True:
            if nxt is not None:
                node, grads, nxt, nxt_grads = nxt, nxt_grads, None, None
            elif heap:
                node = heappop(heap)[1]
                grads = buffers.pop(node, None) or [None] * node._n_out
            else:
                break
            if node._x is not None:
                grads = _pre_hooks(node, grads, create_graph)
            if capture is not None:
                for nr, g in enumerate(grads):
                    key = capture.get((node, nr))
                    if key is not None:
                        results[key] = g
            kind = type(node)
            if kind is AccumulateGrad:
                if accumulate and (useful is None or node in useful) and grads[0] is not None:
                    accumulate_grad(node.variable, grads[0], create_graph)
                continue
            fns = node._fns     # NOTE [edges without tuples] in graph.py
            if useful is not None and not any(fn in useful for fn in fns):
                continue
            direct = kind._direct_backward
            if direct is not None and node._x is None and (not listening or len(grads) == 1):
                # the usual op node, no hooks: _apply's work, without a call; a listener (the
                # tracer) is told as _apply tells it, with the same tuples
                outs = (None,) * len(fns) if grads[0] is None else direct(node, grads[0])
                if listening and _events.listener is not None:
                    _events.listener.on_node_apply(
                        node, (grads[0],), outs if type(outs) is tuple else tuple(outs))
            else:
                outs = _apply(node, grads)
            if not retain_graph:
                versions = node._versions
                if not versions:            # saved no tensor (add, sum): nothing to drop
                    node._freed = True
                elif len(versions) == 1:    # one saved value (sin, exp, tanh ...): no loop
                    if versions[0] is not None:
                        node._saved = (FREED,)
                    node._freed = True
                else:
                    node.free()
                if listening:
                    freed.append(node)
            nrs = node._nrs
            for fn, nr, g in zip(fns, _ALL_ZERO if nrs is None else nrs, outs):
                if fn is None or (useful is not None and fn not in useful):
                    continue
                left = deps[fn] - 1
                deps[fn] = left
                if not left and nxt is None and not heap and fn._n_out == 1 \
                        and fn not in buffers:
                    nxt, nxt_grads = fn, [g]    # its one gradient: no buffer either
                    continue
                if g is not None:
                    if fn in buffers or fn._n_out != 1:
                        _add_to(buffers, fn, nr, g)
                    else:   # the usual first gradient for a one-output node, without a call
                        buffers[fn] = [g]
                if not left:    # what _priority(fn) gives, inline: hot
                    if nxt is not None:     # a second node became ready: both go by priority
                        buffers[nxt] = nxt_grads
                        heappush(heap, _priority(nxt))
                        nxt = None
                    heappush(heap, (_ACC_FIRST + fn._uid if type(fn) is AccumulateGrad
                                    else -fn._uid, fn))
            # the buffers must be the only holders of a gradient handed on: accumulate_grad
            # keeps a large one without copying only then (NOTE in engine/ops/_broadcast.py)
            outs = g = None
    finally:
        _grad_state.enabled, _grad_state.quiet = prev, prev_quiet
    if freed and _events.listener is not None:
        _events.listener.on_graph_freed(tuple(freed))
    if pass_end:
        for callback in list(pass_end):
            callback()
    return results


# called with no arguments when a backward pass has run every node (multi_grad_hook.py's
# hooks on several tensors at once wait for it); empty unless such a hook is registered
pass_end: list = []


# the input numbers of a node whose `_nrs` is None (all 0; NOTE [edges without tuples]):
# endless, so zip() stops at the node's edges and gradients
_ALL_ZERO = repeat(0)


# NOTE [backward order]: PyTorch runs the ready node with the highest sequence number first
# (the newest), and AccumulateGrad nodes (sequence number "max") as soon as they are ready.
# Keys are unique (a node's uid is), so heap entries never compare their nodes; ready
# AccumulateGrads run oldest first among themselves.
_ACC_FIRST = -(1 << 62)


# NOTE [the next node without the heap]: in a chain (and in most of any graph) a node makes
# exactly one node ready while the heap is empty, so that node runs next whatever its
# priority. The walk keeps it, and the one gradient it received, in locals instead of a heap
# entry and a buffer; should a second node become ready in the same step, the kept one goes
# into the heap and the buffers after all, and the order is the heap's again.
def _priority(node) -> tuple:
    return (_ACC_FIRST + node._uid if type(node) is AccumulateGrad else -node._uid, node)


def _add_to(buffers: dict, fn, nr: int, g: Tensor) -> None:
    buf = buffers.get(fn)
    if buf is None:
        buf = buffers[fn] = [None] * fn._n_out
    old = buf[nr]
    if old is None:
        buf[nr] = g
    elif old.is_sparse or g.is_sparse:     # a sparse gradient meets one
        sparse = old if old.is_sparse else g    # (its class adds: no import of it here)
        buf[nr] = sparse._add_grads(g, old, in_place=False)    # PyTorch's order: new + old
    elif _grad_state.enabled:          # create_graph: the sum is part of the new graph
        buf[nr] = old + g
    else:
        buf[nr] = new_tensor(np.add(old._data, g._data))


def _apply(node, grads: list) -> tuple:
    """Run one node's backward (with its hooks) and report it."""
    grads = tuple(grads)
    if node._x is not None and node._x.get("prehooks"):
        for hook in node._x["prehooks"]:
            r = hook(grads)
            if _events.listener is not None:
                _events.hook_ran("node_pre", node, hook, grads, r)
            if r is not None:
                grads = hook_values(hook, grads, r)
    # nothing flows in? (one-output nodes, the usual ones, skip the generator)
    if grads[0] is None if len(grads) == 1 else all(g is None for g in grads):
        outs = (None,) * len(node._fns)
    elif node._x is not None and node._x.get("anomaly") and anomaly.state.enabled:
        outs = anomaly.checked_apply(node, grads)
    else:
        outs = node.apply(grads)
    if node._x is not None and node._x.get("real_grads"):
        # a real input fed by a complex gradient gets its real part (NOTE [complex gradients]
        # in ops/complex.py; PyTorch's engine does it in validate_outputs)
        real = node._x["real_grads"]
        outs = tuple([g.real if k in real and g is not None and g._data.dtype.kind == "c"
                      else g for k, g in enumerate(outs)])
    if node._x is not None and node._x.get("hooks"):
        for hook in node._x["hooks"]:
            r = hook(outs, grads)
            if _events.listener is not None:
                _events.hook_ran("node", node, hook, tuple(outs), r)
            if r is not None:
                outs = hook_values(hook, outs, r)
    if _events.listener is not None:
        _events.listener.on_node_apply(node, grads, tuple(outs))
    return outs


def _pre_hooks(node, grads: list, create_graph: bool) -> list:
    """Hooks and retain_grad of the non-leaf tensors this node produced (by output number)."""
    watched = node._x.get("tensors")
    if not watched:
        return grads
    grads = list(grads)
    for nr, t in watched:
        g = grads[nr]
        if g is None:
            continue
        for hook in t._x.get("hooks", ()):
            r = hook(g)
            if _events.listener is not None:
                _events.hook_ran("tensor", t, hook, (g,), r)
            if r is not None:
                g = hook_value(hook, g, r)
        grads[nr] = g
        if t._x.get("retains_grad"):
            accumulate_grad(t, g, create_graph, run_hooks=False)
    return grads


def _hook_name(hook) -> str:
    return getattr(hook, "__name__", "<unknown>")


def hook_value(hook, original, value):
    """A hook's replacement gradient, refused (in PyTorch's words) when it changes the type or
    size: the walk has already planned for the original's shape and dtype."""
    if original is None:
        raise RuntimeError(messages.HOOK_NONE_REPLACED)
    if not isinstance(value, Tensor):
        raise TypeError(messages.HOOK_NOT_TENSOR.format(type(value).__name__))
    if value.dtype != original.dtype:
        raise RuntimeError(messages.HOOK_CHANGED_TYPE.format(
            _hook_name(hook), original.type(), value.type()))
    if value.shape != original.shape:
        raise RuntimeError(messages.HOOK_CHANGED_SIZE.format(_hook_name(hook)))
    return value


def hook_values(hook, originals: tuple, values) -> tuple:
    """A node hook's replacement for a tuple of gradients: same count, each checked."""
    values = tuple(values)
    if len(values) != len(originals):
        raise RuntimeError(messages.HOOK_COUNT.format(_hook_name(hook), len(values),
                                                      len(originals)))
    return tuple(v if v is None else hook_value(hook, o, v)
                 for o, v in zip(originals, values))


def accumulate_grad(var: Tensor, g: Tensor, create_graph: bool, run_hooks: bool = True):
    """`var.grad += g` as PyTorch does it: the first gradient is stored (kept if nothing else
    holds it, else copied; NOTE [gradient layout contract] in ops/_broadcast.py), later ones
    are added in place (out of place under create_graph)."""
    own = run_hooks     # g comes from the walk (retain_grad's copy does not: it flows on)
    if run_hooks and var._x is not None:
        for hook in var._x.get("hooks", ()):
            r = hook(g)
            if _events.listener is not None:
                _events.hook_ran("tensor", var, hook, (g,), r)
            if r is not None:
                # a hook's tensor may be held elsewhere: never keep it as .grad itself
                g, own = hook_value(hook, g, r), False
    if g._data.dtype != var._data.dtype:    # (a complex gradient for a real leaf: its real part)
        g = new_tensor((g._data.real if var._data.dtype.kind != "c" else g._data)
                       .astype(var._data.dtype))
    old = var._grad
    before = None
    if _events.listener is not None and old is not None \
            and getattr(_events.listener, "copies", True):
        before = new_tensor(old._data.copy())   # NOTE [listener copies] in _events.py
    if g.is_sparse or (old is not None and old.is_sparse):
        new = _accumulate_sparse(old, g)
    elif old is None and create_graph:
        # PyTorch copies the new gradient into a fresh tensor, recorded as CopyBackwards
        from ..ops.inplace import copy_
        from ..ops._broadcast import empty_like_layout
        new = copy_(new_tensor(empty_like_layout(var._data)), g)
    elif old is None and g._data.size < 4096 and var._data.flags.c_contiguous:
        new = new_tensor(np.array(g._data, order="C"))    # small: first_grad would copy it too
    elif old is None:
        new = new_tensor(first_grad(var._data, g, own and _events.listener is None))
    elif create_graph or old._rg:
        new = old + g
    else:
        old._data += g._data
        counter(old)[0] += 1
        new = old
    if new is not old:
        x = new._x
        new._x = {"grad_of": var} if x is None else dict(x, grad_of=var)
    var._grad = new
    if _events.listener is not None:
        _events.listener.on_accumulate(var, before, g, new)
    if run_hooks and var._x is not None and var._x.get("post_accumulate_hooks"):
        _post_accumulate_hooks(var)


def _accumulate_sparse(old: Tensor | None, g: Tensor) -> Tensor:
    """.grad += g when either is sparse: the first is stored as a copy with contiguous
    values; sparse + sparse adds into the stored one; a dense one with a sparse one is
    dense (PyTorch's rules)."""
    if old is None:
        return g.clone() if g.is_sparse else new_tensor(g._data.copy())
    sparse = old if old.is_sparse else g    # (its class adds: no import of it here)
    return sparse._add_grads(old, g, in_place=not (old.is_sparse and not g.is_sparse))


def _post_accumulate_hooks(var: Tensor) -> None:
    """`Tensor.register_post_accumulate_grad_hook`: hook(var), once .grad holds the sum."""
    for hook in list(var._x["post_accumulate_hooks"]):
        if hook(var) is not None:
            raise RuntimeError(messages.POST_ACCUMULATE_HOOK_RETURN)


def backward(tensors, grad_tensors=None, retain_graph=None, create_graph=False,
             grad_variables=None, inputs=None) -> None:
    """Accumulate gradients of `tensors` into the leaves (`torch.autograd.backward`).

    Example:
        >>> import gradstep.engine as torch
        >>> x = torch.tensor([1.0, 2.0], requires_grad=True)
        >>> torch.autograd.backward(x * x, grad_tensors=torch.tensor([1.0, 1.0]))
        >>> x.grad.tolist()
        [2.0, 4.0]
    """
    roots = (tensors,) if isinstance(tensors, Tensor) else tuple(tensors)
    if grad_tensors is None:
        grad_tensors = grad_variables
    seeds = _seeds(roots, grad_tensors, create_graph)
    if retain_graph is None:
        retain_graph = create_graph
    if create_graph:
        messages.warn(messages.CREATE_GRAPH_WARNING)
    targets = capture = None
    if inputs is not None:
        inputs = (inputs,) if isinstance(inputs, Tensor) else tuple(inputs)
        if not inputs:
            raise RuntimeError("`inputs` argument to `backward()` cannot be empty.")
        if not all(t._rg for t in inputs):     # PyTorch retains grads of the inputs first
            raise RuntimeError("can't retain_grad on Tensor that has requires_grad=False")
        targets, capture = _targets(inputs)
        for t in inputs:    # as PyTorch: a non-leaf input retains its grad (no .grad warning)
            if t.grad_fn is not None:
                t.retain_grad()
    if _events.listener is not None:
        _events.listener.on_backward_begin(roots, seeds, retain_graph, create_graph, inputs,
                                           "backward")
    if anomaly.state.enabled:
        anomaly.mark(roots)
    run(roots, seeds, retain_graph, create_graph, targets, capture)
    if _events.listener is not None:
        _events.listener.on_backward_end("backward")


def _targets(inputs: tuple) -> tuple:
    targets, capture = set(), {}
    for i, t in enumerate(inputs):
        if not t._rg:
            raise RuntimeError(messages.NOT_REQUIRING_GRAD_INPUT)
        fn, nr = edge(t)
        targets.add(fn)
        capture.setdefault((fn, nr), i)     # an input listed twice reads the first's key
    return targets, capture


def grad(outputs, inputs, grad_outputs=None, retain_graph=None, create_graph=False,
         only_inputs=True, allow_unused=None, is_grads_batched=False,
         materialize_grads=False) -> tuple:
    """d(outputs)/d(inputs), returned instead of accumulated (`torch.autograd.grad`).

    Example:
        >>> import gradstep.engine as torch
        >>> x = torch.tensor(3.0, requires_grad=True)
        >>> torch.autograd.grad(x ** 2, x)
        (tensor(6.),)
    """
    roots = (outputs,) if isinstance(outputs, Tensor) else tuple(outputs)
    single = isinstance(inputs, Tensor)
    inputs = (inputs,) if single else tuple(inputs)
    if not inputs:
        raise RuntimeError("`inputs` argument to `grad()` cannot be empty.")
    if not only_inputs:
        messages.warn("only_inputs argument is deprecated and is ignored now (defaults to "
                      "True). To accumulate gradient for other parts of the graph, please use "
                      "torch.autograd.backward.", FutureWarning)
    if materialize_grads and allow_unused is False:
        raise ValueError("Expected allow_unused to be True or not passed when "
                         "materialize_grads=True, but got: allow_unused=False.")
    if retain_graph is None:
        retain_graph = create_graph
    if is_grads_batched:
        return _batched(roots, inputs, grad_outputs, retain_graph, create_graph, allow_unused,
                        materialize_grads)
    seeds = _seeds(roots, grad_outputs, create_graph)
    if allow_unused is None:
        allow_unused = materialize_grads
    targets, capture = _targets(inputs)
    if _events.listener is not None:
        _events.listener.on_backward_begin(roots, seeds, retain_graph, create_graph, inputs,
                                           "grad")
    if anomaly.state.enabled:
        anomaly.mark(roots)
    results = run(roots, seeds, retain_graph, create_graph, targets, capture, False)
    out = []
    for i, t in enumerate(inputs):
        g = results.get(capture[edge(t)])
        if g is None:
            if not allow_unused:
                raise RuntimeError(messages.UNUSED_INPUT.format(i))
            if materialize_grads:
                g = new_tensor(np.zeros_like(t._data))
        out.append(g)
    if _events.listener is not None:
        _events.listener.on_backward_end("grad")
    return tuple(out)


def _batched(roots, inputs, grad_outputs, retain_graph, create_graph, allow_unused,
             materialize_grads) -> tuple:
    """is_grads_batched=True: the first dimension of each grad_output indexes independent
    vector-Jacobian products (PyTorch vmaps over it; here one pass per row, then stacked)."""
    from ..ops.join import stack
    gos = (grad_outputs,) if isinstance(grad_outputs, Tensor) else tuple(grad_outputs)
    for i, (go, out) in enumerate(zip(gos, roots)):
        if go is not None and tuple(go.shape[1:]) != tuple(out.shape):
            # PyTorch's message drops the first two sizes of grad_output (it slices twice)
            raise RuntimeError(messages.BATCHED_GRAD_SHAPE.format(i, go.shape[2:], i,
                                                                  out.shape))
    n = gos[0].shape[0]
    rows = [grad(roots, inputs, [go[b] for go in gos], retain_graph or b < n - 1, create_graph,
                 allow_unused=allow_unused or materialize_grads)
            for b in range(n)]
    # an unused input's materialized zeros are not batched
    return tuple(stack(list(col)) if col[0] is not None
                 else new_tensor(np.zeros_like(x._data)) if materialize_grads else None
                 for col, x in zip(zip(*rows), inputs))
