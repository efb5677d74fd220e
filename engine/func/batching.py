"""`torch.func.vmap`: a function of one example run over a batch.

PyTorch vectorises the function; here it runs once per index of the mapped dimension, on
that slice of every mapped input, and the results are stacked along `out_dims`. The values
are the same; what a learner sees is the batch dimension taken apart and put back.
"""
from __future__ import annotations

from ..tensor import Tensor
from . import _report, _tree


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
            results.append(func(*sample))
            _report.step("vmap", b, [t for s, d in zip(sample, dims) if d is not None
                                     for t in _tree.flatten(s)[0]],
                         _tree.flatten(results[-1])[0])
        leaves_per_run = [_tree.flatten(r)[0] for r in results]
        spec = _tree.flatten(results[0])[1]
        outs = out_dims if isinstance(out_dims, (tuple, list)) else \
            [out_dims] * len(leaves_per_run[0])
        stacked = [stack([run[i] for run in leaves_per_run], outs[i])
                   for i in range(len(leaves_per_run[0]))]
        _report.end("vmap", stacked)
        return _tree.unflatten(stacked, spec)
    return wrapper
