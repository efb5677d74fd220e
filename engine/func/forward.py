"""Forward mode in torch.func: `jvp`, `jacfwd` and `hessian`.

`jvp` runs the function on dual numbers, as PyTorch does: inside a forward-mode dual level
(`engine/autograd/forward_ad.py`) each input carries its tangent v, every op pushes its
tangent forward by its own rule (the op's `jvp`, beside its backward; `ops/_tangents.py`),
and the outputs' tangents are J·v. `jacfwd` does that once per input element, with that
element's one-hot tangent, so the Jacobian is built column by column; `hessian` is jacfwd of
jacrev, as in PyTorch. An op without a rule of its own falls back to the double-vjp trick
through its backward, for that op alone (`ops/_tangents.py`, `from_backward`).

When a dual level is already open (a jvp inside `fwAD.dual_level()`, or inside another jvp),
J·v comes from the engine's reverse mode instead, by the double-vjp trick: for a seed u,
g(u) = uᵀJ is linear in u, so differentiating <g(u), v> with respect to u gives J·v, equal
up to rounding (gradstep opens one dual level at a time, as PyTorch's forward_ad does).
"""
from __future__ import annotations

from .. import messages
from .._dual import level as _dual_level
from ..autograd import forward_ad as _fwad
from ..autograd.walk import grad as _autograd_grad
from ..ops.dual import Alias
from ..tensor import Tensor
from . import _levels, _pytree, _report, _tree
from .reverse import _argnums_tuple, _per_argument, _split_aux, jacrev, vjp_of


def jvp_of(outputs: list, inputs: list, tangents: list, keep: bool) -> list:
    """J·v for each output by the double-vjp trick (zeros where an output does not depend on
    the inputs): the route when a dual level is already open."""
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


def _only_tensors(out) -> None:
    """PyTorch's check of f's outputs (jacfwd, a vmap of jvp there, words it as jvp too)."""
    for leaf in _pytree.flatten(out)[0]:
        if not isinstance(leaf, Tensor):
            raise RuntimeError(f"jvp(f, primals, tangents): expected f(*primals) to return "
                               f"only tensors, got unsupported type {type(leaf)}")


def on_duals() -> bool:
    """Whether a transform can open its own dual level (none is open)."""
    return _dual_level.current < 0


def run_dual(func, args: list, positions: list, xs: list, tangents: list, has_aux: bool,
             api: str) -> tuple:
    """Run func(*args) in a dual level of its own, xs[i] (found in `args` through
    positions[i], an (argument, leaf) pair) carrying tangents[i]: (output, aux, the output's
    tensors, their tangents: zeros for an output no tangent reached). The level is closed
    before returning, so what comes back carries no tangent."""
    _fwad.enter_dual_level()
    try:
        trees = [_tree.flatten(a) for a in args]
        for x, v, (k, j) in zip(xs, tangents, positions):
            trees[k][0][j] = _fwad.make_dual(x, v)
        call = [_tree.unflatten(leaves, spec) for leaves, spec in trees]
        out, aux = _split_aux(func(*call), has_aux, api)
        _only_tensors(out)
        outs, _ = _tree.flatten(out)
        products = []
        for o in outs:
            t = _fwad.tangent_of(o)
            products.append(_levels.zeros_for(o) if t is None else t)
    finally:
        _fwad.exit_dual_level()
    return out, aux, outs, products


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
    with _levels.level():     # counted, so transforms inside keep the graphs tangents cross
        leaves, _ = _tree.flatten(primals)
        if len(tangent_leaves) != len(leaves):
            raise RuntimeError("jvp(f, primals, tangents): Expected primals and tangents to "
                               "have the same python structure.")
        for x, v in zip(leaves, tangent_leaves):
            if tuple(x.shape) != tuple(v.shape):
                raise RuntimeError(f"jvp(f, primals, tangents): Expected primals and tangents "
                                   f"to have the same shape. Got {x.shape} and {v.shape}.")
        for x, v in zip(leaves, tangent_leaves):     # make_dual's checks, before fresh's
            for what, t in (("primal", x), ("tangent", v)):
                if not (t.dtype.is_floating_point or t.dtype.is_complex):
                    raise ValueError(messages.FWAD_NOT_FLOAT.format(what, t.dtype))
        # fresh inputs that require grad, as the reverse transforms': a transform inside can
        # differentiate, and an observer can show the J that J·v multiplies
        args, xs, outer = _levels.fresh(primals)
        on_duals_used = on_duals()
        if on_duals_used:
            positions = [(0, j) for j in range(len(xs))]
            out, aux, outs, products = run_dual(
                lambda tree: func(*tree), [args], positions, xs, tangent_leaves, has_aux, "jvp")
        else:
            out, aux = _split_aux(func(*args), has_aux, "jvp")
            outs, _ = _tree.flatten(out)
            products = jvp_of(outs, xs, tangent_leaves, outer or _levels.nested())
        _report.begin("jvp", "product", xs, outs, 1)
        _report.step("jvp", 0, tangent_leaves, products)
        _report.end("jvp", products)
        tangent_out = _tree.unflatten(products, _tree.flatten(out)[1])
        if outer and on_duals_used:
            # PyTorch's jvp hands its primal outputs back through an alias (AliasBackward0)
            leaves_out, out_spec = _tree.flatten(out)
            out = _tree.unflatten([Alias.apply(o) if o.requires_grad else o
                                   for o in leaves_out], out_spec)
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
        # arguments may be trees of tensors: their Jacobians come back in the same trees
        per_arg = [_tree.flatten(args[k]) for k in nums]
        with _levels.level():
            if on_duals():
                outs, per_x, aux, outer = _jacobian_on_duals(func, args, nums, has_aux, api)
            else:
                outs, per_x, aux, outer = _jacobian_by_vjp(func, args, nums, has_aux, api)
        jac = [_per_argument([p[i] for p in per_x], [leaves for leaves, _ in per_arg],
                             [spec for _, spec in per_arg], isinstance(argnums, int))
               for i in range(len(outs))]
        _report.end(api, [p[i] for i in range(len(outs)) for p in per_x])
        result = _tree.unflatten(jac, outs.spec)
        return _levels.finish(result if aux is None else (result, aux), outer)
    return wrapper


def _jacobian_on_duals(func, args: tuple, nums: tuple, has_aux: bool, api: str) -> tuple:
    """One run of func on dual numbers per input element, its tangent one-hot (the other
    inputs' tangents zeros, as PyTorch's basis gives them): column j of the Jacobian is the
    outputs' tangents. (outputs, per input the Jacobian blocks of each output, aux, outer)."""
    from ..factories import zeros, zeros_like
    args, per_arg_leaves, outer = _levels.fresh_args(args, nums)
    xs = [x for leaves in per_arg_leaves for x in leaves]
    positions = [(k, j) for k, leaves in zip(nums, per_arg_leaves) for j in range(len(leaves))]
    total = sum(x.numel() for x in xs)
    outs = aux = spec = None
    cols: list = []
    for col in range(max(total, 1)):
        tangents = [zeros_like(x) for x in xs]
        which, j = _locate(xs, col)
        if total:
            tangents[which]._data.reshape(-1)[j] = 1
        out, got_aux, run_outs, products = run_dual(func, list(args), positions, xs, tangents,
                                                    has_aux, "jacfwd")
        if outs is None:
            outs, aux, spec = run_outs, got_aux, _tree.flatten(out)[1]
            _report.begin(api, "columns", xs, outs, total)
        if total:
            cols.append(products)
            _report.step(api, col, tangents, products)
    per_x = []
    for k, x in enumerate(xs):
        first = sum(xi.numel() for xi in xs[:k])
        mine = cols[first:first + x.numel()]
        per_x.append([_stack_columns(o, x, [c[i] for c in mine], zeros)
                      for i, o in enumerate(outs)])
    return _Outs(outs, spec), per_x, aux, outer


def _locate(xs: list, col: int) -> tuple:
    """(which input, which element of it) column `col` of the whole Jacobian belongs to."""
    for k, x in enumerate(xs):
        if col < x.numel():
            return k, col
        col -= x.numel()
    return 0, 0


class _Outs(list):
    """The outputs, with the structure they came in (for unflatten)."""

    def __init__(self, outs, spec) -> None:
        super().__init__(outs)
        self.spec = spec


def _stack_columns(o, x, columns: list, zeros):
    """d o / d x shaped o.shape + x.shape from its columns (one J·eⱼ per element of x)."""
    from ..ops.join import stack
    shape = tuple(o.shape) + tuple(x.shape)
    if not columns:
        return zeros(shape, dtype=o.dtype)
    return stack([c.reshape(-1) for c in columns], -1).reshape(shape)


def _jacobian_by_vjp(func, args: tuple, nums: tuple, has_aux: bool, api: str) -> tuple:
    """The Jacobian by the double-vjp trick, column by column (a dual level is open)."""
    args, per_arg_leaves, outer = _levels.fresh_args(args, nums)
    xs = [x for leaves in per_arg_leaves for x in leaves]
    out, aux = _split_aux(func(*args), has_aux, "jacfwd")
    keep = outer or _levels.nested()
    outs, spec = _tree.flatten(out)
    _report.begin(api, "columns", xs, outs, sum(x.numel() for x in xs))
    per_x = [_jacobian_columns(outs, xs, k, keep, api) for k in range(len(xs))]
    return _Outs(outs, spec), per_x, aux, outer


def _jacobian_columns(outs: list, xs: list, k: int, keep: bool, api: str) -> list:
    """d out / d xs[k] for each out, shaped out.shape + x.shape, one J·eⱼ per column."""
    from ..factories import zeros, zeros_like
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
    return [_stack_columns(o, x, [c[i] for c in cols], zeros) for i, o in enumerate(outs)]


def hessian(func, argnums=0):
    """The matrix of second derivatives of a scalar `func`: jacfwd of jacrev.

    Example:
        >>> import gradstep.engine as torch
        >>> torch.func.hessian(lambda x: (x ** 3).sum())(torch.tensor([1., 2.]))
        tensor([[ 6.,  0.],
                [ 0., 12.]])
    """
    return _jacfwd(jacrev(func, argnums), argnums, False, "hessian")

