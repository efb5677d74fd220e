"""Every registered op pushes a tangent that matches central finite differences (J·t).

Like test_gradcheck.py, the ops come from `engine.ops._op.REGISTRY` and their inputs from
`sample_inputs`, so an op added anywhere is checked here too, whichever rule it uses (its
declared `jvp`, or the double-vjp fallback through its backward). Each case runs twice: with
inputs that do not require grad (the tangent is plain) and with inputs that do (the formula is
recorded, missing tangents stand in as zeros), and both must give the same values.
"""
import importlib

import numpy as np
import pytest

import gradstep.engine as torch
import gradstep.engine.autograd.forward_ad as fwAD
from gradstep.engine.ops._op import REGISTRY

importlib.import_module("gradstep.engine.ops.nn_ops")
importlib.import_module("gradstep.engine.ops.losses")
importlib.import_module("gradstep.engine.nn")
importlib.import_module("gradstep.engine.ops.dual")

# the two views make_dual and unpack_dual make carry no tangent of their own, by design
OPS = sorted((n, op) for n, op in REGISTRY.items()
             if op.derivative_orders >= 1 and op.__name__ not in ("MakeDual", "UnpackPrimal"))
SHAPES = [(2, 3), (3,), ()]


def _maker(rng):
    def make(shape, low=-2.0, high=2.0):
        return torch.tensor(rng.uniform(low, high, shape), dtype=torch.float64,
                            requires_grad=True)
    return make


def _map(args, fn) -> list:
    """`args` with every grad-requiring leaf (also inside a list argument) replaced by fn(t)."""
    def one(a):
        if isinstance(a, torch.Tensor) and a.requires_grad and a.is_leaf:
            return fn(a)
        return a
    return [[one(x) for x in a] if isinstance(a, list) else one(a) for a in args]


def _first_float(out):
    """The first differentiable output as a real tensor (a complex one as its two parts)."""
    outs = out if isinstance(out, tuple) else (out,)
    for o in outs:
        if isinstance(o, torch.Tensor) and o.dtype.is_floating_point:
            return o
        if isinstance(o, torch.Tensor) and o.dtype.is_complex:
            return torch.view_as_real(o)
    return None


def _forward(op, args, tangents, requires_grad):
    """The op's output tangent at the sample, computed in forward mode."""
    seen = iter(tangents)
    with fwAD.dual_level():
        duals = _map(args, lambda a: fwAD.make_dual(
            torch.tensor(a.detach().numpy(), requires_grad=requires_grad), next(seen)))
        out = _first_float(op.apply(*duals))
        tangent = None if out is None else fwAD.unpack_dual(out).tangent
        return None if tangent is None else tangent.detach().numpy().copy()


def _numeric(op, args, tangents, eps=1e-6):
    def at(sign):
        seen = iter(tangents)
        shifted = _map(args, lambda a: torch.tensor(a.detach().numpy() +
                                                     sign * eps * next(seen).numpy()))
        with torch.no_grad():
            out = _first_float(op.apply(*shifted))
        return None if out is None else out.numpy().copy()   # in-place ops reuse it
    hi, lo = at(1), at(-1)
    return None if hi is None else (hi - lo) / (2 * eps)


@pytest.mark.parametrize("name,op", OPS, ids=[n for n, _ in OPS])
def test_tangent_matches_finite_differences(name, op):
    rng = np.random.default_rng(11)
    checked = 0
    for shape in SHAPES:
        for args in op.sample_inputs(_maker(rng), shape):
            args = list(args)
            leaves = []
            _map(args, leaves.append)
            if not leaves:
                continue
            tangents = [torch.tensor(rng.normal(size=tuple(a.shape)) + (
                1j * rng.normal(size=tuple(a.shape)) if a.dtype.is_complex else 0))
                for a in leaves]
            want = _numeric(op, args, tangents)
            if want is None:
                continue
            for requires_grad in (False, True):
                got = _forward(op, args, tangents, requires_grad)
                assert got is not None, f"{name}: no tangent (requires_grad={requires_grad})"
                np.testing.assert_allclose(
                    got, np.broadcast_to(want, got.shape), rtol=1e-4, atol=1e-5,
                    err_msg=f"{name} {shape} requires_grad={requires_grad}")
            checked += 1
    assert checked, f"{name}: no sample with a floating output was checked"
