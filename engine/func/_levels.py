"""How torch.func's transforms nest here: each runs its function on fresh inputs that require
grad and differentiates with the engine's reverse mode.

PyTorch's functorch gives every transform a "level" and wraps tensors per level. Here a
transform's inputs are new graph leaves (`detach().requires_grad_()`), or views of the inputs
when those already require grad (an enclosing transform's leaves), so the enclosing transform
can differentiate through the inner one's result. Inner transforms therefore keep their graphs
(`create_graph=True`); the outermost one hands back plain tensors, as PyTorch's do when
nothing outside required grad.
"""
from __future__ import annotations

from .. import _dual
from ..grad_mode import enable_grad
from ..tensor import Tensor, transform_depth
from . import _tree

depth = transform_depth      # how many transforms are running, one inside the other


class level:  # used as a context manager, like grad_mode's
    """One transform running: grad mode on, nesting depth counted."""

    def __enter__(self):
        self._grad = enable_grad()
        self._grad.__enter__()
        depth[0] += 1
        return self

    def __exit__(self, *exc):
        depth[0] -= 1
        self._grad.__exit__(*exc)
        return False


def nested() -> bool:
    """Whether an enclosing transform will differentiate what this one returns."""
    return depth[0] > 1


def fresh(tree) -> tuple:
    """(tree with each tensor replaced by one this transform differentiates with respect to,
    the list of those tensors, whether any of the originals required grad)."""
    leaves, spec = _tree.flatten(tree)
    outer = any(t.requires_grad for t in leaves)
    new = [t.view_as(t) if t.requires_grad else _keep_tangent(t, t.detach().requires_grad_(True))
           for t in leaves]
    return _tree.unflatten(new, spec), new, outer


def _keep_tangent(t: Tensor, leaf: Tensor) -> Tensor:
    """`leaf` given t's tangent, if t has one: inside a jvp (which runs on dual numbers) a
    transform's fresh input and its result still carry the direction, so the derivative it
    computes does too (jvp of grad is a Hessian-vector product). `detach` alone drops it."""
    if _dual.tangents:
        from ..ops._tangents import tangent_of
        tangent = tangent_of(t)
        if tangent is not None:
            _dual.attach(leaf, tangent)
    return leaf


def fresh_args(args: tuple, nums: tuple) -> tuple:
    """`fresh` for the arguments at positions `nums`: (the arguments as a list with those
    replaced, the new tensors of each in `nums` order, whether any original required grad)."""
    args = list(args)
    per_arg, outer = [], False
    for k in nums:
        args[k], new, was = fresh(args[k])
        per_arg.append(new)
        outer = outer or was
    return args, per_arg, outer


def finish(tree, keep_graph: bool):
    """The results handed back: plain tensors, unless a graph around them still matters."""
    if keep_graph or nested():
        return tree
    leaves, spec = _tree.flatten(tree)
    return _tree.unflatten([_keep_tangent(t, t.detach()) for t in leaves], spec)


def zeros_for(t: Tensor) -> Tensor:
    from ..factories import zeros_like
    return zeros_like(t)
