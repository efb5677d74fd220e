"""Forward mode in torch.func: `jvp`, `jacfwd` and `hessian`.

A Jacobian-vector product J·v is computed here from the engine's reverse mode, by the
double-vjp trick: for a seed u, g(u) = uᵀJ is linear in u, so differentiating <g(u), v> with
respect to u gives J·v. (PyTorch instead pushes the tangent v forward through each op; the
numbers are the same.) `jacfwd` builds the Jacobian column by column, one J·eⱼ per input
element; `hessian` is jacfwd of jacrev, as in PyTorch.
"""
from __future__ import annotations

from ..autograd.walk import grad as _autograd_grad
from . import _levels, _report, _tree
from .reverse import _argnums_tuple, _split_aux, jacrev, vjp_of


def jvp_of(outputs: list, inputs: list, tangents: list, keep: bool) -> list:
    """J·v for each output (zeros where the output does not depend on the inputs)."""
    from ..factories import zeros_like
    live = [o for o in outputs if o.requires_grad]
    if not live:
        return [_levels.zeros_for(o) for o in outputs]
    us = [zeros_like(o).requires_grad_(True) for o in live]
    gs = vjp_of(live, inputs, us, True)     # uᵀJ, kept differentiable in u
    pairs = [(g, v) for g, v in zip(gs, tangents) if g.requires_grad]
    if not pairs:
        jv = [None] * len(us)
    else:
        jv = _autograd_grad([g for g, _ in pairs], us, [v for _, v in pairs],
                            retain_graph=True, create_graph=keep, allow_unused=True)
    by_output = dict(zip(map(id, live), jv))
    return [_levels.zeros_for(o) if by_output.get(id(o)) is None else by_output[id(o)]
            for o in outputs]


def _check_tuple(value, name: str) -> None:
    if not isinstance(value, tuple):
        raise RuntimeError(f"jvp(f, primals, tangents): Expected {name} to be a tuple. E.g. "
                           f"it should be valid to call f(*{name}).")


def jvp(func, primals, tangents, *, strict: bool = False, has_aux: bool = False):
    """(func(*primals), J·tangents): the Jacobian-vector product at `primals`.

    Example:
        >>> import gradstep.engine as torch
        >>> torch.func.jvp(lambda x: x ** 2, (torch.tensor([1., 3.]),),
        ...                (torch.tensor([1., 0.]),))
        (tensor([1., 9.]), tensor([2., 0.]))
    """
    _check_tuple(primals, "primals")
    _check_tuple(tangents, "tangents")
    tangent_leaves, _ = _tree.flatten(tangents)
    with _levels.level():
        args, xs, outer = _levels.fresh(primals)
        if len(tangent_leaves) != len(xs):
            raise RuntimeError("jvp(f, primals, tangents): Expected primals and tangents to "
                               "have the same python structure.")
        for x, v in zip(xs, tangent_leaves):
            if tuple(x.shape) != tuple(v.shape):
                raise RuntimeError(f"jvp(f, primals, tangents): Expected primals and tangents "
                                   f"to have the same shape. Got {x.shape} and {v.shape}.")
        out, aux = _split_aux(func(*args), has_aux, "jvp")
        outs, spec = _tree.flatten(out)
        keep = outer or _levels.nested()
        _report.begin("jvp", "product", xs, outs, 1)
        products = jvp_of(outs, xs, tangent_leaves, keep)
        _report.step("jvp", 0, tangent_leaves, products)
        _report.end("jvp", products)
        tangent_out = _tree.unflatten(products, spec)
    result = (out, tangent_out) if aux is None else (out, tangent_out, aux)
    return _levels.finish(result, outer)


def jacfwd(func, argnums=0, has_aux: bool = False, *, randomness: str = "error"):
    """A function returning the Jacobian of `func` at its arguments, built column by column:
    one Jacobian-vector product per input element, with that element's one-hot tangent.

    Example:
        >>> import gradstep.engine as torch
        >>> torch.func.jacfwd(lambda x: x.sin())(torch.tensor([0., 0.]))
        tensor([[1., 0.],
                [0., 1.]])
    """
    return _jacfwd(func, argnums, has_aux, "jacfwd")


def _jacfwd(func, argnums, has_aux: bool, api: str):
    """jacfwd, reported to an observer as `api` (hessian is one too)."""
    def wrapper(*args):
        nums = _argnums_tuple(argnums, len(args), "jacfwd")
        with _levels.level():
            args, per_arg_leaves, outer = _levels.fresh_args(args, nums)
            xs = [x for (x,) in per_arg_leaves]     # one tensor per argument
            out, aux = _split_aux(func(*args), has_aux, "jacfwd")
            keep = outer or _levels.nested()
            outs, spec = _tree.flatten(out)
            _report.begin(api, "columns", xs, outs, sum(x.numel() for x in xs))
            per_x = [_jacobian_columns(outs, xs, k, keep, api) for k in range(len(xs))]
        jac = [per_x[0][i] if isinstance(argnums, int) else tuple(p[i] for p in per_x)
               for i in range(len(outs))]
        _report.end(api, [p[i] for i in range(len(outs)) for p in per_x])
        result = _tree.unflatten(jac, spec)
        return _levels.finish(result if aux is None else (result, aux), outer)
    return wrapper


def _jacobian_columns(outs: list, xs: list, k: int, keep: bool, api: str) -> list:
    """d out / d xs[k] for each out, shaped out.shape + x.shape, one J·eⱼ per column."""
    from ..factories import zeros, zeros_like
    from ..ops.join import stack
    x = xs[k]
    n = x.numel()
    offset = sum(xi.numel() for xi in xs[:k])
    cols = []
    for j in range(n):
        e = zeros(n, dtype=x.dtype)
        e._data[j] = 1
        tangents = [e.reshape(x.shape) if i == k else zeros_like(xi) for i, xi in enumerate(xs)]
        cols.append(jvp_of(outs, xs, tangents, keep))
        _report.step(api, offset + j, tangents, cols[-1])
    result = []
    for i, o in enumerate(outs):
        shape = tuple(o.shape) + tuple(x.shape)
        if not n:
            result.append(zeros(shape, dtype=o.dtype))
            continue
        flat = stack([c[i].reshape(-1) for c in cols], -1)    # (out elements, x elements)
        result.append(flat.reshape(shape))
    return result


def hessian(func, argnums=0):
    """The matrix of second derivatives of a scalar `func`: jacfwd of jacrev.

    Example:
        >>> import gradstep.engine as torch
        >>> torch.func.hessian(lambda x: (x ** 3).sum())(torch.tensor([1., 2.]))
        tensor([[ 6.,  0.],
                [ 0., 12.]])
    """
    return _jacfwd(jacrev(func, argnums), argnums, False, "hessian")

