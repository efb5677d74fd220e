"""Every registered op against central finite differences in float64, first and second order.

The tests iterate `engine.ops._op.REGISTRY`, so an op added anywhere (including nn ops) is
checked without touching this file; each op supplies its inputs through `sample_inputs`, and
an op without one fails here. Shapes come from Hypothesis: 0-d up to 3-d, and the binary
samplers add broadcasting partners.
"""
import importlib.util

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import gradstep.engine as torch
from gradstep.engine.ops._op import REGISTRY

if importlib.util.find_spec("gradstep.engine.ops.nn_ops") is not None:
    importlib.import_module("gradstep.engine.ops.nn_ops")   # nn's ops register themselves on import
    importlib.import_module("gradstep.engine.ops.losses")
    importlib.import_module("gradstep.engine.nn")   # the ops of every nn family file

OPS = sorted(REGISTRY.items())
SHAPES = st.lists(st.integers(1, 3), min_size=0, max_size=3).map(tuple)


def _maker(rng):
    def make(shape, low=-2.0, high=2.0):
        data = rng.uniform(low, high, shape)
        return torch.tensor(data, dtype=torch.float64, requires_grad=True)
    return make


def _leaves(args) -> list:
    flat = []
    for a in args:
        flat.extend(a if isinstance(a, list) else [a])
    return [a for a in flat if isinstance(a, torch.Tensor) and a.requires_grad and a.is_leaf]


def _outputs(out) -> list:
    """The differentiable outputs as real tensors: a complex one as its two parts."""
    outs = out if isinstance(out, tuple) else (out,)
    return [torch.view_as_real(o) if o.dtype.is_complex else o for o in outs
            if isinstance(o, torch.Tensor) and (o.dtype.is_floating_point or o.dtype.is_complex)]


def _scalar(op, args, weights):
    """sum_i <w_i, out_i>: a scalar whose gradient is the vector-Jacobian product."""
    outs = _outputs(op.apply(*args))
    total = None
    for o, w in zip(outs, weights):
        term = (o * w).sum()
        total = term if total is None else total + term
    return total


def _grads(f, leaves, create_graph=False) -> list:
    if not f.requires_grad:
        return [torch.zeros_like(x) for x in leaves]
    gs = torch.autograd.grad(f, leaves, allow_unused=True, create_graph=create_graph)
    return [torch.zeros_like(x) if g is None else g for g, x in zip(gs, leaves)]


def _numeric(fn, leaves, eps) -> list:
    """Central differences of scalar-valued fn() with respect to each leaf element; for a
    complex leaf dfn/dx + i dfn/dy, the gradient PyTorch reports."""
    out = []
    for x in leaves:
        units = (1, 1j) if x.dtype.is_complex else (1,)
        g = np.zeros(x.shape, np.complex128 if x.dtype.is_complex else np.float64)
        flat = x.data.numpy().reshape(-1)
        for i in range(flat.size):
            keep = flat[i]
            for unit in units:
                flat[i] = keep + eps * unit
                hi = fn()
                flat[i] = keep - eps * unit
                lo = fn()
                flat[i] = keep
                g.reshape(-1)[i] += unit * (hi - lo) / (2 * eps)
        out.append(g)
    return out


def _check(op, args, rng):
    leaves = _leaves(args)
    if not leaves or op.derivative_orders < 1:   # a NotImplemented node raises, as PyTorch's
        return
    weights = [torch.tensor(rng.normal(size=o.shape)) for o in _outputs(op.apply(*args))]
    f = _scalar(op, args, weights)
    analytic = _grads(f, leaves)
    numeric = _numeric(lambda: _scalar(op, args, weights).item(), leaves, 1e-6)
    for a, n in zip(analytic, numeric):
        np.testing.assert_allclose(a.numpy(), n, rtol=1e-4, atol=1e-5,
                                   err_msg=f"{op.__name__}: first derivative")
    if op.derivative_orders < 2:    # PyTorch defines no second derivative (hardsigmoid)
        return
    # second order: d/dx <u, grad f(x)> through create_graph=True
    us = [torch.tensor(rng.normal(size=x.shape) + (1j * rng.normal(size=x.shape)
                                                    if x.dtype.is_complex else 0))
          for x in leaves]

    def inner(create_graph):
        g = _grads(_scalar(op, args, weights), leaves, create_graph)
        total = None
        for gi, u in zip(g, us):
            # the real inner product <u, g>: for complex gradients Re(sum(g * conj(u)))
            term = (gi * u.conj()).real.sum()
            total = term if total is None else total + term
        return total

    second = _grads(inner(True), leaves)
    numeric2 = _numeric(lambda: inner(False).item(), leaves, 1e-5)
    for a, n in zip(second, numeric2):
        np.testing.assert_allclose(a.numpy(), n, rtol=1e-3, atol=1e-4,
                                   err_msg=f"{op.__name__}: second derivative")


@pytest.mark.parametrize("name,op", OPS, ids=[n for n, _ in OPS])
# derandomize: the same examples on every run, so CI cannot meet a new near-kink draw by chance
@settings(max_examples=6, deadline=None, derandomize=True, database=None,
          suppress_health_check=[HealthCheck.too_slow])
@given(shape=SHAPES, seed=st.integers(0, 2**31 - 1))
def test_op_matches_finite_differences(name, op, shape, seed):
    rng = np.random.default_rng(seed)
    for args in op.sample_inputs(_maker(rng), shape):
        _check(op, list(args), rng)


@pytest.mark.parametrize("name,op", OPS, ids=[n for n, _ in OPS])
def test_op_declares_samples(name, op):
    """An op must offer at least one sample for an ordinary 2-D shape (no silent skips)."""
    samples = list(op.sample_inputs(_maker(np.random.default_rng(0)), (2, 3)))
    assert samples, f"{op.__name__}.sample_inputs yields nothing for shape (2, 3)"
    assert any(_leaves(list(s)) for s in samples), f"{op.__name__}: no input requires grad"


def test_registry_names_match_node_classes():
    for _name, op in OPS:
        assert op.Node.__name__ == op.grad_fn_name
        assert isinstance(op._rule, str) if hasattr(op, "_rule") else op.Node._rule
