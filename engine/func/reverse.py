"""Reverse mode in torch.func: `grad`, `grad_and_value`, `vjp` and `jacrev`.

Each runs the function once on fresh inputs (`_levels.fresh`) and asks the engine's backward
pass for vector-Jacobian products: `grad` with the seed 1 on a scalar output, `vjp` with the
caller's cotangents, `jacrev` with one one-hot seed per output element, so the Jacobian is
built row by row.
"""
from __future__ import annotations

from .. import _events
from ..autograd.walk import grad as _autograd_grad
from ..factories import ones_like
from ..tensor import Tensor
from . import _levels, _report, _tree


def _argnums_tuple(argnums, n_args: int, api: str) -> tuple:
    nums = argnums if isinstance(argnums, tuple) else (argnums,)
    for k in nums:
        if not isinstance(k, int):
            raise RuntimeError(f"{api}: argnums must be int or Tuple[int, ...], got: "
                               f"{type(argnums)}")
        if not -n_args <= k < n_args:
            raise RuntimeError(f"Got argnums={k}, but only {n_args} positional inputs")
    return tuple(k % n_args for k in nums)


def vjp_of(outputs: list, inputs: list, seeds: list, keep: bool) -> list:
    """d<outputs, seeds>/d inputs, zeros where an input is not reached."""
    pairs = [(o, s) for o, s in zip(outputs, seeds) if o.requires_grad]
    if not pairs:
        return [_levels.zeros_for(x) for x in inputs]
    got = _autograd_grad([o for o, _ in pairs], inputs, [s for _, s in pairs],
                         retain_graph=True, create_graph=keep, allow_unused=True)
    return [_levels.zeros_for(x) if g is None else g for g, x in zip(got, inputs)]


def _split_aux(out, has_aux: bool, api: str):
    if not has_aux:
        return out, None
    if not (isinstance(out, tuple) and len(out) == 2):
        raise RuntimeError(f"{api}(f)(*args): output of function f should be a tuple: "
                           f"(output, aux) if has_aux is True")
    return out


def grad_and_value(func, argnums=0, has_aux: bool = False):
    """A function returning (d func / d args[argnums], func(*args)) for a scalar `func`.

    Example:
        >>> import gradstep.engine as torch
        >>> torch.func.grad_and_value(lambda x: (x ** 2).sum())(torch.tensor([1., 2.]))
        (tensor([2., 4.]), tensor(5.))
    """
    def wrapper(*args, **kwargs):
        nums = _argnums_tuple(argnums, len(args), "grad_and_value")
        with _levels.level():
            args, per_arg_leaves, outer = _levels.fresh_args(args, nums)
            new_leaves = [x for leaves in per_arg_leaves for x in leaves]
            trees = [(k, len(leaves)) for k, leaves in zip(nums, per_arg_leaves)]
            out, aux = _split_aux(func(*args, **kwargs), has_aux, "grad_and_value")
            _check_scalar(out)
            keep = outer or _levels.nested()
            grads = vjp_of([out], new_leaves, [ones_like(out)], keep)
            per_arg, at = [], 0
            for k, n in trees:
                _, spec = _tree.flatten(args[k])
                per_arg.append(_tree.unflatten(grads[at:at + n], spec))
                at += n
        g = per_arg[0] if isinstance(argnums, int) else tuple(per_arg)
        result = (g, out) if aux is None else ((g, out), aux)
        return _levels.finish(result, outer)
    return wrapper


def _check_scalar(out) -> None:
    if not isinstance(out, Tensor):
        raise RuntimeError(f"grad_and_value(f)(*args): Expected f(*args) to return a Tensor, "
                           f"got {type(out)}")
    if out.ndim != 0:
        raise RuntimeError(f"grad_and_value(f)(*args): Expected f(*args) to return a scalar "
                           f"Tensor, got tensor with {out.ndim} dims. Maybe you wanted to use "
                           f"the vjp or jacrev APIs instead?")


def grad(func, argnums=0, has_aux: bool = False):
    """A function returning d func / d args[argnums] for a `func` with a scalar output.

    Example:
        >>> import gradstep.engine as torch
        >>> torch.func.grad(lambda x: x.sin().sum())(torch.tensor([0.]))
        tensor([1.])
    """
    both = grad_and_value(func, argnums, has_aux)

    def wrapper(*args, **kwargs):
        result = both(*args, **kwargs)
        if has_aux:
            (g, _), aux = result
            return g, aux
        return result[0]
    return wrapper


def vjp(func, *primals, has_aux: bool = False):
    """(func(*primals), vjp_fn): vjp_fn(cotangents) gives v·J for each primal, as a tuple.

    Example:
        >>> import gradstep.engine as torch
        >>> out, vjp_fn = torch.func.vjp(lambda x: x ** 2, torch.tensor([1., 3.]))
        >>> vjp_fn(torch.tensor([1., 1.]))
        (tensor([2., 6.]),)
    """
    with _levels.level():
        args, leaves, outer = _levels.fresh(primals)
        out, aux = _split_aux(func(*args), has_aux, "vjp")
        out_leaves, out_spec = _tree.flatten(out)
    depth_at_call = _levels.depth[0]

    def vjp_fn(cotangents, retain_graph: bool = True, create_graph=None):
        seeds, spec = _tree.flatten(cotangents)
        if len(seeds) != len(out_leaves):
            raise RuntimeError("Expected pytree structure of cotangents to be the same as "
                               "pytree structure of outputs to the function")
        with _levels.level():
            keep = outer or depth_at_call > 0 or bool(create_graph)
            _report.begin("vjp", "product", leaves, out_leaves, 1)
            grads = vjp_of(out_leaves, leaves, seeds, keep)
            _report.step("vjp", 0, seeds, grads)
            _report.end("vjp", grads)
            result = _tree.unflatten(grads, _tree.flatten(primals)[1])
        return _levels.finish(tuple(result), keep)
    result = (_levels.finish(out, outer), vjp_fn)
    return result if aux is None else result + (_levels.finish(aux, outer),)


def jacrev(func, argnums=0, *, has_aux: bool = False, chunk_size=None):
    """A function returning the Jacobian of `func` at its arguments, built row by row: one
    vector-Jacobian product per output element, with that element's one-hot vector.

    Example:
        >>> import gradstep.engine as torch
        >>> torch.func.jacrev(lambda x: x ** 2)(torch.tensor([1., 2.]))
        tensor([[2., 0.],
                [0., 4.]])
    """
    def wrapper(*args):
        nums = _argnums_tuple(argnums, len(args), "jacrev")
        with _levels.level():
            args, per_arg_leaves, outer = _levels.fresh_args(args, nums)
            # an argument may be a tree of tensors (a dict of parameters): its Jacobian is
            # the same tree, of d out / d leaf
            xs = [x for leaves in per_arg_leaves for x in leaves]
            specs = [_tree.flatten(args[k])[1] for k in nums]
            out, aux = _split_aux(func(*args), has_aux, "jacrev")
            keep = outer or _levels.nested()
            outs, spec = _tree.flatten(out)
            _report.begin("jacrev", "rows", xs, outs, sum(o.numel() for o in outs))
            offsets = [sum(o.numel() for o in outs[:i]) for i in range(len(outs))]
            per_out = [_jacobian_rows(k, xs, keep, outs, at) for k, at in enumerate(offsets)]
        jac = [_per_argument(j, per_arg_leaves, specs, isinstance(argnums, int))
               for j in per_out]
        _report.end("jacrev", [b for j in per_out for b in j])
        result = _tree.unflatten(jac, spec)
        return _levels.finish(result if aux is None else (result, aux), outer)
    return wrapper


def _per_argument(blocks: list, per_arg_leaves: list, specs: list, single: bool):
    """One output's Jacobian blocks (one per leaf) regrouped into each argument's tree."""
    trees, start = [], 0
    for leaves, spec in zip(per_arg_leaves, specs):
        trees.append(_tree.unflatten(blocks[start:start + len(leaves)], spec))
        start += len(leaves)
    return trees[0] if single else tuple(trees)


def _jacobian_rows(which: int, xs: list, keep: bool, outs: list, offset: int) -> list:
    """For each x: d out / d x (out = outs[which]), shaped out.shape + x.shape, one backward
    pass per row (row `offset + i` of the Jacobian of all of `outs`, as the observer is
    told)."""
    from ..ops.join import stack
    from ..factories import zeros
    out = outs[which]
    n = out.numel()
    rows = []
    for i in range(n):
        # every output seeded (zeros but for this element), as PyTorch's batched basis does:
        # the others' zero contributions are added too, which decides the sign of a zero
        seed = zeros(n, dtype=out.dtype)
        seed._data[i] = 1
        seeds = [seed.reshape(out.shape) if k == which else zeros(o.shape, dtype=o.dtype)
                 for k, o in enumerate(outs)]
        rows.append(vjp_of(outs, xs, seeds, keep))
        if _events.listener is not None:
            _report.step("jacrev", offset + i, _report.one_hot_seeds(outs, offset + i), rows[-1])
    return [stack([r[k] for r in rows]).reshape(tuple(out.shape) + tuple(x.shape)) if n else
            zeros(tuple(out.shape) + tuple(x.shape), dtype=x.dtype)
            for k, x in enumerate(xs)]
