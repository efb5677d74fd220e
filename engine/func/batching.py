"""`torch.func.vmap`: a function of one example run over a batch.

PyTorch vectorises the function; here it runs once per index of the mapped dimension, on
that slice of every mapped input, and the results are stacked along `out_dims`. The values
are the same; what a learner sees is the batch dimension taken apart and put back.
"""
from __future__ import annotations

import numpy as np

from .. import _events
from .._names import PACKAGE
from ..tensor import Tensor, batched_uids
from . import _report, _tree


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


def _run_batched(func, sample: list, dims: list):
    """func(*sample) with the mapped arguments' tensors marked batched while it runs."""
    marked = [t._uid for s, d in zip(sample, dims) if d is not None
              for t in _tree.flatten(s)[0] if isinstance(t, Tensor)]
    saved = set(batched_uids)
    batched_uids.update(marked)
    previous = _events.set_listener(_Batched(_events.listener))
    try:
        return func(*sample)
    finally:
        _events.set_listener(previous)
        batched_uids.clear()
        batched_uids.update(saved)


def _dims_per_arg(in_dims, args: tuple) -> list:
    if isinstance(in_dims, int) or in_dims is None:
        return [in_dims] * len(args)
    if not isinstance(in_dims, (tuple, list)) or len(in_dims) != len(args):
        raise ValueError(f"vmap(f, in_dims={in_dims}, ...)(<inputs>): in_dims is not "
                         f"compatible with the structure of `inputs`. in_dims has structure "
                         f"{in_dims!r} but inputs has {len(args)} positional arguments.")
    return list(in_dims)


def _batch_size(args: tuple, dims: list) -> int:
    sizes = []
    for arg, d in zip(args, dims):
        if d is None:
            continue
        for t in _tree.flatten(arg)[0]:
            if not -t.ndim <= d < max(t.ndim, 1) or t.ndim == 0:
                raise ValueError(f"vmap(f, in_dims={d}, ...)(<inputs>): Got in_dim={d} for "
                                 f"an input but the input is of type {type(t)}. We cannot "
                                 f"vmap over non-Tensor arguments, please use None as the "
                                 f"respective in_dim" if not isinstance(t, Tensor) else
                                 f"vmap(f, in_dims=..., ...)(<inputs>): Got in_dim={d} for "
                                 f"an input but the input is of dimension {t.ndim}")
            sizes.append(t.shape[d])
    if not sizes:
        raise ValueError("vmap(f, in_dims=..., ...)(<inputs>): at least one input must be "
                         "mapped over (got all in_dims None)")
    if len(set(sizes)) > 1:
        raise ValueError(f"vmap: Expected all tensors to have the same size in the mapped "
                         f"dimension, got sizes {sizes} for the mapped dimension")
    return sizes[0]


def _slice(arg, d, b: int):
    if d is None:
        return arg
    leaves, spec = _tree.flatten(arg)
    return _tree.unflatten([t.select(d, b) for t in leaves], spec)


def vmap(func, in_dims=0, out_dims=0, randomness: str = "error", *, chunk_size=None):
    """`func` mapped over dimension `in_dims` of its inputs; results stacked at `out_dims`.

    Example:
        >>> import gradstep.engine as torch
        >>> torch.func.vmap(torch.dot)(torch.ones(2, 3), torch.ones(2, 3))
        tensor([3., 3.])
    """
    from ..ops.join import stack

    def wrapper(*args):
        dims = _dims_per_arg(in_dims, args)
        n = _batch_size(args, dims)
        mapped = [t for a, d in zip(args, dims) if d is not None for t in _tree.flatten(a)[0]]
        _report.begin("vmap", "batch", mapped, (), n)
        results = []
        for b in range(n):
            sample = [_slice(a, d, b) for a, d in zip(args, dims)]
            results.append(_run_batched(func, sample, dims))
            _report.step("vmap", b, [t for s, d in zip(sample, dims) if d is not None
                                     for t in _tree.flatten(s)[0]],
                         _tree.flatten(results[-1])[0])
        leaves_per_run = [_tree.flatten(r)[0] for r in results]
        spec = _tree.flatten(results[0])[1]
        outs = out_dims if isinstance(out_dims, (tuple, list)) else \
            [out_dims] * len(leaves_per_run[0])
        stacked = [stack([run[i] for run in leaves_per_run], outs[i])
                   for i in range(len(leaves_per_run[0]))]
        whole = _as_one_op(func, args, dims, out_dims, stacked, leaves_per_run[0])
        if whole is not None:
            stacked = [whole]
        _report.end("vmap", stacked)
        return _tree.unflatten(stacked, spec)
    return wrapper


def _as_one_op(func, args: tuple, dims: list, out_dims, stacked: list, first: list):
    """What PyTorch's vmap gives when `func` is one engine op that takes a whole batch as it
    is (torch.relu, torch.exp, torch.add ...): that op applied once to the batch, whose
    grad_fn is the op's (ReluBackward0) rather than a stack of examples. Checked, not
    assumed: the values, shape and node name must equal the per-example run's, else None."""
    if not (getattr(func, "__module__", None) or "").startswith(PACKAGE) or len(stacked) != 1 \
            or out_dims != 0 or any(d not in (0, None) for d in dims):
        return None
    if (getattr(func, "__name__", None) or "_").endswith("_"):
        return None     # an in-place op (relu_, mul_) must not run on the batch a second time
    if any(isinstance(a, Tensor) == (d is None) for a, d in zip(args, dims)):
        return None     # a batch is one tensor; an unmapped tensor would broadcast otherwise
    try:
        whole = func(*args)
    except Exception:   # the op does not take a batch (dot, outer ...): the stack stands
        return None
    want, node = stacked[0], getattr(first[0], "grad_fn", None)
    if not isinstance(whole, Tensor) or whole.shape != want.shape or \
            whole.dtype != want.dtype or type(whole.grad_fn).__name__ != \
            type(node).__name__ or not np.array_equal(whole._data, want._data, equal_nan=True):
        return None
    return whole
