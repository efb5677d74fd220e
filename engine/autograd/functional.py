"""`torch.autograd.functional`: jacobian, hessian, vjp, jvp, hvp and vhp of a Python function.

PyTorch counterpart: `torch.autograd.functional`. Each call differentiates `func` at fresh
leaf copies of `inputs`, so the caller's tensors and their `.grad` are never touched. Results
are detached unless `create_graph=True`. Inputs and outputs may be a Tensor or a tuple of
Tensors; results mirror that structure as PyTorch's do (a tuple in, a tuple out).
"""
from __future__ import annotations

from .. import _events
from ..func import _report
from ..grad_mode import enable_grad
from ..ops.join import stack
from ..tensor import Tensor
from .walk import grad as _grad


def _as_tuple(x, arg: str, fn: str) -> tuple:
    """(is_tuple, tuple of Tensors), with PyTorch's complaint for anything else."""
    if isinstance(x, Tensor):
        return False, (x,)
    if isinstance(x, (tuple, list)) and all(isinstance(t, Tensor) for t in x):
        return True, tuple(x)
    if arg == "outputs":
        raise TypeError(f"The outputs of the user-provided function given to {fn} must be "
                        "either a Tensor or a tuple of Tensors but the given outputs of the "
                        f"user-provided function has type {type(x)}.")
    raise TypeError(f"The {arg} given to {fn} must be either a Tensor or a tuple of Tensors "
                    f"but the value at index 0 has type {type(x)}.")


def _leaves(inputs: tuple, create_graph: bool) -> tuple:
    """Fresh leaves that require grad (kept attached to the caller's graph if asked)."""
    out = []
    for t in inputs:
        if create_graph and t.requires_grad:
            out.append(t.view_as(t))    # differentiable back to the caller's tensor
        else:
            out.append(t.detach().requires_grad_(True))
    return tuple(out)


def _grads(outputs: tuple, inputs: tuple, grad_outputs, create_graph: bool, strict: bool,
           fn: str) -> tuple:
    """d(outputs)/d(inputs) weighted by grad_outputs; zeros where nothing flows."""
    pairs = [(o, g) for o, g in zip(outputs, grad_outputs or [None] * len(outputs))
             if o.requires_grad]
    if strict and len(pairs) != len(outputs):
        i = next(i for i, o in enumerate(outputs) if not o.requires_grad)
        raise RuntimeError(f"Output {i} of the user-provided function does not require "
                           "gradients. The outputs must be computed in a differentiable "
                           "manner from the input when running in strict mode.")
    if not pairs:
        return tuple(x.detach() * 0 for x in inputs)
    res = _grad([o for o, _ in pairs], inputs, [g for _, g in pairs], retain_graph=True,
                create_graph=create_graph, allow_unused=True)
    out = []
    for i, (r, x) in enumerate(zip(res, inputs)):
        if r is None:
            if strict:
                raise RuntimeError(f"The output of the user-provided function is independent "
                                   f"of input {i}. This is not allowed in strict mode.")
            r = x.detach() * 0
        out.append(r)
    return tuple(out)


def _finish(values: tuple, create_graph: bool) -> tuple:
    return values if create_graph else tuple(v.detach() for v in values)


def _check_v(v, other: tuple, fn: str, other_is_tuple: bool) -> tuple:
    """v as a tuple matching `other` (the outputs for vjp, the inputs for jvp) in shapes."""
    _, vs = _as_tuple(v, "v", fn)
    if len(vs) != len(other):
        if other_is_tuple:
            raise RuntimeError(f"v is a tuple of invalid length: should be {len(other)} but "
                               f"got {len(vs)}.")
        raise RuntimeError("The given v should contain a single Tensor.")
    for a, b in zip(vs, other):
        if tuple(a.shape) != tuple(b.shape):
            raise RuntimeError(f"v has invalid size: should be {b.shape!r} but got "
                               f"{a.shape!r}.")
    return vs


def vjp(func, inputs, v=None, create_graph: bool = False, strict: bool = False):
    """(func(inputs), v^T J): the vector-Jacobian product at `inputs`.

    Example:
        >>> import gradstep.engine as torch
        >>> out, g = vjp(lambda x: x ** 2, torch.tensor([1.0, 2.0]), torch.tensor([1.0, 1.0]))
        >>> g
        tensor([2., 4.])
    """
    with enable_grad():
        is_tuple, inputs = _as_tuple(inputs, "inputs", "vjp")
        inputs = _leaves(inputs, create_graph)
        out_tuple, outputs = _as_tuple(func(*inputs), "outputs", "vjp")
        if v is None:
            if out_tuple or outputs[0].numel() != 1:
                raise RuntimeError("The vector v can only be None if the user-provided function "
                                   "returns a single Tensor with a single element.")
            vs = None
        else:
            vs = _check_v(v, outputs, "vjp", out_tuple)
        res = _grads(outputs, inputs, vs, create_graph, strict, "vjp")
    outputs = _finish(outputs, create_graph)
    res = _finish(res, create_graph)
    return (outputs if out_tuple else outputs[0]), (res if is_tuple else res[0])


def jvp(func, inputs, v=None, create_graph: bool = False, strict: bool = False):
    """(func(inputs), J v): the Jacobian-vector product, by the double-backward trick.

    Example:
        >>> import gradstep.engine as torch
        >>> jvp(lambda x: x ** 2, torch.tensor([1.0, 2.0]), torch.tensor([1.0, 0.0]))[1]
        tensor([2., 0.])
    """
    from ..factories import zeros_like
    with enable_grad():
        is_tuple, inputs = _as_tuple(inputs, "inputs", "jvp")
        inputs = _leaves(inputs, create_graph)
        if v is None:
            if is_tuple or inputs[0].numel() != 1:
                raise RuntimeError("The vector v can only be None if the input to the "
                                   "user-provided function is a single Tensor with a single "
                                   "element.")
            vs = None
        else:
            vs = _check_v(v, inputs, "jvp", is_tuple)
        out_tuple, outputs = _as_tuple(func(*inputs), "outputs", "jvp")
        # u -> J^T u is linear in u; differentiating <J^T u, v> with respect to u gives J v
        us = tuple(zeros_like(o).requires_grad_(True) for o in outputs)
        gu = _grads(outputs, inputs, us, True, strict, "jvp")
        pairs = [(g, w) for g, w in zip(gu, vs or (None,) * len(gu)) if g.requires_grad]
        if pairs:
            res = _grad([g for g, _ in pairs], us, [w for _, w in pairs], retain_graph=True,
                        create_graph=create_graph, allow_unused=True)
            res = tuple(zeros_like(o) if r is None else r for r, o in zip(res, outputs))
        else:
            res = tuple(zeros_like(o) for o in outputs)
    outputs = _finish(outputs, create_graph)
    res = _finish(res, create_graph)
    return (outputs if out_tuple else outputs[0]), (res if out_tuple else res[0])


def jacobian(func, inputs, create_graph: bool = False, strict: bool = False,
             vectorize: bool = False, strategy: str = "reverse-mode"):
    """d func / d inputs, shaped output.shape + input.shape (nested tuples for tuples).

    Example:
        >>> import gradstep.engine as torch
        >>> jacobian(lambda x: x ** 2, torch.tensor([1.0, 2.0]))
        tensor([[2., 0.],
                [0., 4.]])
    """
    forward_mode = _forward_mode(strategy, create_graph, strict, vectorize)
    return _jacobian(func, inputs, create_graph, strict, forward_mode, "jacobian")


def _forward_mode(strategy: str, create_graph: bool, strict: bool, vectorize: bool) -> bool:
    """Whether a jacobian's `strategy` asks for forward mode, after PyTorch's checks of it and
    of the options that go with it (jacobian's and hessian's outer jacobian share them)."""
    if strategy not in ("reverse-mode", "forward-mode"):
        raise ValueError('Expected strategy to be either "forward-mode" or "reverse-mode". '
                         "Hint: If your function has more outputs than inputs, \"forward-mode\" "
                         "tends to be more performant. Otherwise, prefer to use "
                         "\"reverse-mode\".")
    forward_mode = strategy == "forward-mode"
    _check_jacobian_options(forward_mode, create_graph, strict, vectorize)
    return forward_mode


def _jacobian(func, inputs, create_graph: bool, strict: bool, forward_mode: bool, api: str):
    """jacobian, reported to an observer as `api` (hessian is one too): one vector-Jacobian
    product per output element, so the observer sees it row by row."""
    with enable_grad():
        is_tuple, inputs = _as_tuple(inputs, "inputs", "jacobian")
        inputs = _leaves(inputs, create_graph)
        out_tuple, outputs = _as_tuple(func(*inputs), "outputs", "jacobian")
        _report.begin(api, "rows", inputs, outputs, sum(o.numel() for o in outputs))
        table = []
        offset = 0
        for _i, out in enumerate(outputs):
            flat = out.reshape(-1)
            rows = [[] for _ in inputs]
            for j in range(flat.numel()):
                gs = _grads((flat[j],), inputs, None, create_graph, strict, "jacobian")
                for k, g in enumerate(gs):
                    rows[k].append(g)
                if _events.listener is not None:
                    _report.step(api, offset + j, _report.one_hot_seeds(list(outputs), offset + j),
                                 gs)
            offset += flat.numel()
            table.append(tuple(_assemble(rows[k], out, x, create_graph)
                               for k, x in enumerate(inputs)))
        _report.end(api, [b for row in table for b in row])
    if forward_mode and is_tuple:
        # PyTorch's forward-mode path hands back lists where reverse mode gives tuples
        table = [list(row) for row in table]
        return table if out_tuple else table[0]
    if out_tuple:
        return tuple(row if is_tuple else row[0] for row in table)
    return table[0] if is_tuple else table[0][0]


def _check_jacobian_options(forward_mode: bool, create_graph: bool, strict: bool,
                            vectorize: bool) -> None:
    """The option combinations PyTorch's jacobian refuses, in its order and words."""
    name = "torch.autograd.functional.jacobian"
    if forward_mode and create_graph:
        raise NotImplementedError(f'{name}: `create_graph=True` and `strategy="forward-mode"` '
                                  "are not supported together (yet). Please either set "
                                  '`create_graph=False` or `strategy="reverse-mode"`.')
    if forward_mode and strict:
        raise RuntimeError(f'{name}: `strict=True` and `strategy="forward-mode"` are not '
                           "supported together (yet). Please either set `strict=False` or "
                           '`strategy="reverse-mode"`.')
    if forward_mode and not vectorize:
        # (sic: PyTorch's two string pieces join without a space)
        raise NotImplementedError("Computing Jacobian using forward-AD or forward-over-reverse "
                                  "Hessian isonly implemented for `vectorize=True`.")
    if vectorize and strict:
        raise RuntimeError(f"{name}: `strict=True` and `vectorized=True` are not supported "
                           "together. Please either set `strict=False` or `vectorize=False`.")


def _assemble(rows: list, out: Tensor, x: Tensor, create_graph: bool) -> Tensor:
    shape = tuple(out.shape) + tuple(x.shape)
    if not rows:
        return x.detach().new_zeros(shape)
    block = stack(rows, 0).view(shape)
    return block if create_graph else block.detach()


def hessian(func, inputs, create_graph: bool = False, strict: bool = False,
            vectorize: bool = False, outer_jacobian_strategy: str = "reverse-mode"):
    """Second derivatives of a scalar `func`: input.shape + input.shape (tuples of tuples).

    Example:
        >>> import gradstep.engine as torch
        >>> hessian(lambda x: (x ** 3).sum(), torch.tensor([1.0, 2.0]))
        tensor([[ 6.,  0.],
                [ 0., 12.]])
    """
    is_tuple, _ = _as_tuple(inputs, "inputs", "hessian")

    def gradient(*xs):
        _, outs = _as_tuple(func(*xs), "outputs", "hessian")
        if len(outs) != 1 or outs[0].numel() != 1:
            raise RuntimeError("The Tensor returned by the function given to hessian should "
                               "contain a single element")
        g = _grads((outs[0].reshape(()),), xs, None, True, strict, "hessian")
        return g if is_tuple else g[0]

    forward_mode = _forward_mode(outer_jacobian_strategy, create_graph, strict, vectorize)
    return _jacobian(gradient, inputs, create_graph, strict, forward_mode, "hessian")


def vhp(func, inputs, v=None, create_graph: bool = False, strict: bool = False):
    """(func(inputs), v^T H) for a scalar `func`."""
    return _hessian_product(func, inputs, v, create_graph, strict, "vhp")


def hvp(func, inputs, v=None, create_graph: bool = False, strict: bool = False):
    """(func(inputs), H v) for a scalar `func` (H is symmetric, so equal to v^T H)."""
    return _hessian_product(func, inputs, v, create_graph, strict, "hvp")


def _hessian_product(func, inputs, v, create_graph, strict, fn: str):
    with enable_grad():
        is_tuple, inputs = _as_tuple(inputs, "inputs", fn)
        inputs = _leaves(inputs, create_graph)
        _, outs = _as_tuple(func(*inputs), "outputs", fn)
        if len(outs) != 1 or outs[0].numel() != 1:
            raise RuntimeError(f"The function given in {fn} should return a single Tensor "
                               "containing a single element.")
        if v is None:
            if is_tuple or inputs[0].numel() != 1:
                raise RuntimeError("The vector v can only be None if the input to the "
                                   "user-provided function is a single Tensor with a single "
                                   "element.")
            from ..factories import ones_like
            vs = (ones_like(inputs[0]),)
        else:
            vs = _check_v(v, inputs, fn, is_tuple)
        g = _grads((outs[0].reshape(()),), inputs, None, True, strict, fn)
        res = _grads(g, inputs, vs, create_graph, strict, fn)
    out = _finish(outs, create_graph)[0]
    res = _finish(res, create_graph)
    return out, (res if is_tuple else res[0])


__all__ = ["vjp", "jvp", "jacobian", "hessian", "vhp", "hvp"]
