"""`torch.func.vmap`: a function of one example run over a batch.

PyTorch vectorises the function; here it runs once per index of the mapped dimension, on
that slice of every mapped input, and the results are stacked along `out_dims`. The values
are the same; what a learner sees is the batch dimension taken apart and put back. So the
output of a function of several ops shows StackBackward0 where PyTorch's shows the node of
its last op run on the batch (SumBackward1 for `lambda t: t.sum()`); a function that is one
engine op is run once more on the whole batch for that node (`_as_one_op`).
"""
from __future__ import annotations

import functools

import numpy as np

from .. import _events, generator, messages
from .._names import PACKAGE
from ..tensor import Tensor, batch_sizes, batched_uids
from . import _pytree, _report


def _nothing(*args, **kwargs) -> None:
    return None


class _Batched:
    """An event listener that marks every tensor computed from a batched one (as PyTorch's
    BatchedTensor wraps them), so `.item()`, `bool()` and `.tolist()` refuse as PyTorch's do;
    it passes every event on to the listener it wraps (the tracer, or nobody)."""

    def __init__(self, inner) -> None:
        self.inner = inner

    def __getattr__(self, name: str):
        return _nothing if self.inner is None else getattr(self.inner, name)

    def on_op(self, op_name: str, inputs: tuple, output, node) -> None:
        if any(t is not None and t._uid in batched_uids for t in inputs):
            batched_uids.add(output._uid)
        if self.inner is not None:
            self.inner.on_op(op_name, inputs, output, node)


def _run_batched(func, sample: tuple, kwargs: dict, marked: list, randomness: str) -> tuple:
    """(func(*sample, **kwargs), which tensors it computed from the batch), with the tensors
    in `marked` (the sample's mapped ones) marked batched while it runs, and random draws
    refused under randomness="error" (with "different" each example draws its own)."""
    saved = set(batched_uids)
    batched_uids.update(t._uid for t in marked)
    previous = _events.set_listener(_Batched(_events.listener))
    refusing = generator.refuse[0]
    if randomness == "error":
        generator.refuse[0] = messages.VMAP_RANDOM
    try:
        out = func(*sample, **kwargs)
        return out, set(batched_uids)
    finally:
        generator.refuse[0] = refusing
        _events.set_listener(previous)
        batched_uids.clear()
        batched_uids.update(saved)


def name_of(func) -> str:
    """How PyTorch's vmap names `func` in its errors."""
    name = getattr(func, "__name__", None)
    if name is not None:
        return name
    if isinstance(func, functools.partial):
        return f"functools.partial({name_of(func.func)}, ...)"
    return repr(func)


def _flat_in_dims(func, in_dims, args: tuple) -> tuple:
    """(the arguments' leaves, each one's mapped dim or None, their spec), checked as
    PyTorch checks them, with its errors."""
    name = name_of(func)
    if not isinstance(in_dims, (int, tuple)) or isinstance(in_dims, bool):
        raise ValueError(f"vmap({name}, in_dims={in_dims}, ...)(<inputs>): expected `in_dims` "
                         f"to be int or a (potentially nested) tuple matching the structure "
                         f"of inputs, got: {type(in_dims)}.")
    if not args:
        raise ValueError(f"vmap({name})(<inputs>): got no inputs. Maybe you forgot to add "
                         f"inputs, or you are trying to vmap over a function with no inputs. "
                         f"The latter is unsupported.")
    leaves, spec = _pytree.flatten(args)
    dims = _pytree.broadcast_to(in_dims, spec)
    if dims is None:
        raise ValueError(f"vmap({name}, in_dims={in_dims}, ...)(<inputs>): in_dims is not "
                         f"compatible with the structure of `inputs`. in_dims has structure "
                         f"{_pytree.spec_repr(_pytree.flatten(in_dims)[1])} but inputs has "
                         f"structure {_pytree.spec_repr(spec)}.")
    head = f"vmap({name}, in_dims={in_dims}, ...)(<inputs>): "
    for i, (leaf, d) in enumerate(zip(leaves, dims)):
        if d is None:
            continue
        if not isinstance(d, int):
            raise ValueError(f"{head}Got in_dim={d} for an input but in_dim must be either an "
                             f"integer dimension or None.")
        if not isinstance(leaf, Tensor):
            raise ValueError(f"{head}Got in_dim={d} for an input but the input is of type "
                             f"{type(leaf)}. We cannot vmap over non-Tensor arguments, please "
                             f"use None as the respective in_dim")
        if not -leaf.ndim <= d < leaf.ndim:
            raise ValueError(f"{head}Got in_dim={d} for some input, but that input is a Tensor "
                             f"of dimensionality {leaf.ndim} so expected in_dim to satisfy "
                             f"-{leaf.ndim} <= in_dim < {leaf.ndim}.")
        dims[i] = d % leaf.ndim
    return leaves, dims, spec


def _batch_size(leaves: list, dims: list) -> int:
    sizes = [t.shape[d] for t, d in zip(leaves, dims) if d is not None]
    if not sizes:
        raise ValueError("vmap: Expected at least one Tensor to vmap over")
    if any(n != sizes[0] for n in sizes):
        raise ValueError(f"vmap: Expected all tensors to have the same size in the mapped "
                         f"dimension, got sizes {sizes} for the mapped dimension")
    return sizes[0]


def _check_out_dims(func, out_dims) -> None:
    leaves = [out_dims] if isinstance(out_dims, int) else _pytree.flatten(out_dims)[0]
    if any(d is not None and (not isinstance(d, int) or isinstance(d, bool)) for d in leaves):
        raise ValueError(f"vmap({name_of(func)}, ..., out_dims={out_dims}): `out_dims` must be "
                         f"an int, None or a python collection of ints representing where in "
                         f"the outputs the vmapped dimension should appear.")


def _flat_out_dims(func, out_dims, first, spec) -> list:
    """Each output leaf's out_dim, PyTorch's way (a single tensor takes an int, a 1-tuple or
    None; a structure must match out_dims' or take one value for all)."""
    if isinstance(first, Tensor):
        if isinstance(out_dims, int) or out_dims is None:
            return [out_dims]
        if isinstance(out_dims, tuple) and len(out_dims) == 1:
            return list(out_dims)
        flat = None
    else:
        flat = _pytree.broadcast_to(out_dims, spec)
    if flat is None:
        raise ValueError(f"vmap({name_of(func)}, ..., out_dims={out_dims})(<inputs>): out_dims "
                         f"is not compatible with the structure of `outputs`. out_dims has "
                         f"structure {_pytree.spec_repr(_pytree.flatten(out_dims)[1])} but "
                         f"outputs has structure {_pytree.spec_repr(spec)}.")
    return flat


def vmap(func, in_dims=0, out_dims=0, randomness: str = "error", *, chunk_size=None):
    """`func` mapped over dimension `in_dims` of its inputs; results stacked at `out_dims`.

    Example:
        >>> import gradstep.engine as torch
        >>> torch.func.vmap(torch.dot)(torch.ones(2, 3), torch.ones(2, 3))
        tensor([3., 3.])
    """
    if randomness not in ("error", "different", "same"):
        raise RuntimeError(f"Only allowed values for randomness are 'error', 'different', or "
                           f"'same'. Got {randomness}")

    def wrapper(*args, **kwargs):
        _check_out_dims(func, out_dims)
        leaves, dims, spec = _flat_in_dims(func, in_dims, args)
        n = _batch_size(leaves, dims)
        mapped = [t for t, d in zip(leaves, dims) if d is not None]
        _report.begin("vmap", "batch", mapped, (), n)
        batch_sizes.append(n)
        try:
            runs = _run_each(func, leaves, dims, spec, kwargs, n, randomness)
        finally:
            batch_sizes.pop()
        (first, out_spec), _ = runs[0]
        outs = _flat_out_dims(func, out_dims, _pytree.unflatten(first, out_spec), out_spec)
        stacked = [_put_back(func, [run[0][0][i] for run in runs], [run[1] for run in runs], d)
                   for i, d in enumerate(outs)]
        whole = _as_one_op(func, args, dims, out_dims, stacked, first)
        if whole is not None:
            stacked = [whole]
        _report.end("vmap", [t for t in stacked if isinstance(t, Tensor)])
        return _pytree.unflatten(stacked, out_spec)
    return wrapper


def _run_each(func, leaves, dims, spec, kwargs, n: int, randomness: str) -> list:
    """((output leaves, output spec), batched uids) of each example's run."""
    runs = []
    for b in range(n):
        sample = [t if d is None else t.select(d, b) for t, d in zip(leaves, dims)]
        marked = [t for t, d in zip(sample, dims) if d is not None]
        out, batched = _run_batched(func, _pytree.unflatten(sample, spec), kwargs, marked,
                                    randomness)
        runs.append((_pytree.flatten(out), batched))
        _report.step("vmap", b, marked, [t for t in runs[-1][0][0]
                                         if isinstance(t, Tensor)])
    return runs


def _put_back(func, per_run: list, batched: list, out_dim):
    """One output leaf of every run, stacked at `out_dim` (PyTorch's checks first)."""
    from ..ops.join import stack
    name = name_of(func)
    if out_dim is None:
        if any(isinstance(v, Tensor) and v._uid in b for v, b in zip(per_run, batched)):
            raise ValueError(f"vmap({name}, ...): `{name}` can not return a BatchedTensor when "
                             f"out_dim is None")
        return per_run[0]
    if not isinstance(per_run[0], Tensor):
        raise ValueError(f"vmap({name}, ...): `{name}` must only return Tensors, got type "
                         f"{type(per_run[0])}. Did you mean to set out_dims= to None for "
                         f"output?")
    return stack(per_run, out_dim)


def _as_one_op(func, args: tuple, dims: list, out_dims, stacked: list, first: list):
    """What PyTorch's vmap gives when `func` is one engine op that takes a whole batch as it
    is (torch.relu, torch.exp, torch.add ...): that op applied once to the batch, whose
    grad_fn is the op's (ReluBackward0) rather than a stack of examples; a full reduction
    (torch.sum) becomes the reduction over every dim but the batch's, PyTorch's batching rule,
    whose node is the dim overload's (SumBackward1). Checked, not assumed: the values and
    shape must equal the per-example run's and the node be the one expected, else None."""
    if not (getattr(func, "__module__", None) or "").startswith(PACKAGE) or len(stacked) != 1 \
            or out_dims != 0:
        return None
    if (getattr(func, "__name__", None) or "_").endswith("_"):
        return None     # an in-place op (relu_, mul_) must not run on the batch a second time
    if any(isinstance(a, Tensor) == (d is None) for a, d in zip(args, dims)):
        return None     # a batch is one tensor; an unmapped tensor would broadcast otherwise
    node = getattr(first[0], "grad_fn", None)
    name = type(node).__name__ if node is not None else None
    reduced = _FULL_REDUCTIONS.get(getattr(func, "__name__", None))
    if reduced is not None and name == reduced[0] and len(args) == 1 and args[0].ndim >= 2:
        rest = tuple(k for k in range(args[0].ndim) if k != dims[0])
        call, name = (lambda: func(args[0], dim=rest)), reduced[1]
    elif any(d not in (0, None) for d in dims):
        return None
    else:
        call = lambda: func(*args)      # noqa: E731 - one call, two ways to make it
    try:
        whole = call()
    except Exception:   # the op does not take a batch (dot, outer ...): the stack stands
        return None
    want = stacked[0]
    if not isinstance(whole, Tensor) or whole.shape != want.shape or \
            whole.dtype != want.dtype or type(whole.grad_fn).__name__ != name or \
            not np.array_equal(whole._data, want._data, equal_nan=True):
        return None
    return whole


# engine reductions over all elements, by name: (the example's node, the batch's node)
_FULL_REDUCTIONS = {"sum": ("SumBackward0", "SumBackward1"),
                    "mean": ("MeanBackward0", "MeanBackward1")}
