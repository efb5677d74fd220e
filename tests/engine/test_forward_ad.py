"""torch.autograd.forward_ad: levels, dual tensors, and tangents checked against finite
differences for the ops the engine has."""
from __future__ import annotations

import numpy as np
import pytest

import gradstep.engine as torch
import gradstep.engine.autograd.forward_ad as fwAD
from gradstep.engine import _events


def _t(values, dtype=torch.float64):
    return torch.tensor(values, dtype=dtype)


def test_make_dual_and_unpack_dual_round_trip():
    primal, tangent = _t([0.5, 1.0]), _t([1.0, -2.0])
    with fwAD.dual_level() as level:
        assert level == 0
        dual = fwAD.make_dual(primal, tangent)
        p, t = fwAD.unpack_dual(dual)
        assert t is tangent and fwAD.tangent_of(dual) is tangent
        assert p.tolist() == [0.5, 1.0] and fwAD.tangent_of(p) is None
        assert fwAD.unpack_dual(primal).tangent is None
        x = torch.ones(2, requires_grad=True)
        view = fwAD.unpack_dual(x).primal      # a view even without a tangent, as PyTorch's
        assert view is not x and view.grad_fn.name() == "torch::autograd::Identity"
        assert repr(view.grad_fn).startswith("<CppFunction object at 0x")
        assert repr(view) == "tensor([1., 1.], grad_fn=<Identity>)"
    assert fwAD.tangent_of(dual) is None
    assert fwAD.unpack_dual(x).primal is x


def test_tangents_are_dropped_when_the_level_exits():
    with fwAD.dual_level():
        out = fwAD.make_dual(_t([1.0]), _t([2.0])) * 3
        assert fwAD.tangent_of(out).tolist() == [6.0]
    assert fwAD.tangent_of(out) is None
    assert fwAD.unpack_dual(out) == (out, None)
    assert "tangent" not in repr(out)


def test_the_readme_example_prints_as_pytorch_does():
    primal = torch.tensor([0.5, 1.0, 2.0])
    with fwAD.dual_level():
        out = fwAD.make_dual(primal, torch.ones(3)).sin() * 2
        assert repr(out) == ("tensor([0.9589, 1.6829, 1.8186], "
                             "tangent=tensor([ 1.7552,  1.0806, -0.8323]))")
        assert repr(fwAD.unpack_dual(out)).startswith("UnpackedDualTensor(primal=tensor(")


def test_errors_use_pytorchs_messages():
    with pytest.raises(RuntimeError, match="no level exists, make sure to enter_dual_level"):
        fwAD.make_dual(_t([1.0]), _t([1.0]))
    with fwAD.dual_level():
        with pytest.raises(RuntimeError, match="^Nested forward mode AD is not supported"):
            fwAD.enter_dual_level()
        with pytest.raises(RuntimeError, match=r"Tensor is of size \[2\] while the given "
                                               r"forward gradient is of size \[3\]"):
            fwAD.make_dual(_t([1.0, 2.0]), _t([1.0, 2.0, 3.0]))
        with pytest.raises(ValueError, match="Expected tangent to be floating point"):
            fwAD.make_dual(_t([1.0]), torch.tensor([1]))
        with pytest.raises(ValueError, match="Expected primal to be floating point"):
            fwAD.make_dual(torch.tensor([1]), _t([1.0]))
    with pytest.raises(RuntimeError, match="Dual level must be a positive number."):
        fwAD.exit_dual_level()


def test_entering_and_exiting_a_level_is_reported():
    seen = []

    class Watch(_events.Listener):
        def on_dual_level(self, level, entered):
            seen.append((level, entered, fwAD.current_level()))

    old = _events.set_listener(Watch())
    try:
        with fwAD.dual_level():
            pass
    finally:
        _events.set_listener(old)
    assert seen == [(0, True, 0), (0, False, -1)]


# (name, function of the dual inputs, input shapes, low, high)
OPS = [
    ("add", lambda a, b: a + b, [(3,), (3,)], -2, 2),
    ("add alpha", lambda a, b: torch.add(a, b, alpha=2.5), [(3,), (2, 3)], -2, 2),
    ("sub", lambda a, b: a - b, [(2, 3), (3,)], -2, 2),
    ("mul", lambda a, b: a * b, [(3,), (3,)], -2, 2),
    ("div", lambda a, b: a / b, [(3,), (3,)], 0.5, 2),
    ("pow number", lambda a: a ** 3, [(4,)], -2, 2),
    ("neg", lambda a: -a, [(3,)], -2, 2),
    ("exp", lambda a: a.exp(), [(3,)], -2, 2),
    ("log", lambda a: a.log(), [(3,)], 0.5, 2),
    ("sin", lambda a: a.sin(), [(3,)], -2, 2),
    ("cos", lambda a: a.cos(), [(3,)], -2, 2),
    ("tanh", lambda a: a.tanh(), [(3,)], -2, 2),
    ("sigmoid", lambda a: a.sigmoid(), [(3,)], -2, 2),
    ("relu", lambda a: a.relu(), [(5,)], 0.1, 2),
    ("sqrt", lambda a: a.sqrt(), [(3,)], 0.5, 2),
    ("matmul mm", lambda a, b: a @ b, [(2, 3), (3, 4)], -1, 1),
    ("matmul mv", lambda a, b: a @ b, [(2, 3), (3,)], -1, 1),
    ("matmul dot", lambda a, b: a @ b, [(3,), (3,)], -1, 1),
    ("matmul batched", lambda a, b: a @ b, [(2, 2, 3), (3, 2)], -1, 1),
    ("sum", lambda a: a.sum(), [(2, 3)], -1, 1),
    ("sum dim", lambda a: a.sum(1, keepdim=True), [(2, 3)], -1, 1),
    ("mean", lambda a: a.mean(), [(2, 3)], -1, 1),
    ("mean dim", lambda a: a.mean(0), [(2, 3)], -1, 1),
    ("transpose view", lambda a: a.t().reshape(-1)[1:] * 2, [(2, 3)], -1, 1),
]


def _finite_difference(fn, xs, ts, eps=1e-6):
    plus = fn(*[torch.tensor(x + eps * t) for x, t in zip(xs, ts)])._data
    minus = fn(*[torch.tensor(x - eps * t) for x, t in zip(xs, ts)])._data
    return (plus - minus) / (2 * eps)


@pytest.mark.parametrize("name,fn,shapes,low,high", OPS, ids=[o[0] for o in OPS])
def test_tangent_matches_finite_differences(name, fn, shapes, low, high):
    rng = np.random.default_rng(7)
    xs = [rng.uniform(low, high, s) for s in shapes]
    ts = [rng.normal(size=s) for s in shapes]
    with fwAD.dual_level():
        duals = [fwAD.make_dual(torch.tensor(x), torch.tensor(t)) for x, t in zip(xs, ts)]
        out = fn(*duals)
        tangent = fwAD.unpack_dual(out).tangent
        assert tangent is not None
        got = tangent._data
    np.testing.assert_allclose(got, _finite_difference(fn, xs, ts), rtol=1e-6, atol=1e-8)


def test_only_one_input_dual_gives_that_inputs_term():
    with fwAD.dual_level():
        a = fwAD.make_dual(_t([1.0, 2.0]), _t([1.0, 0.0]))
        b = _t([3.0, 4.0])
        assert fwAD.tangent_of(b / a).tolist() == [-3.0, -0.0]
        assert np.signbit(fwAD.tangent_of(b / a)._data[1])
        assert fwAD.tangent_of(a * b).tolist() == [3.0, 0.0]


def test_backward_through_a_dual_tensor_reaches_the_primal():
    x = torch.tensor([1.0, 2.0], requires_grad=True)
    with fwAD.dual_level():
        d = fwAD.make_dual(x, torch.ones(2))
        assert d.grad_fn.name() == "ViewBackward0"
        y = (d * d).sum()
        assert fwAD.tangent_of(y).item() == 6.0
        y.backward()
    assert x.grad.tolist() == [2.0, 4.0]


def test_a_tensor_that_dies_takes_its_tangent_with_it():
    from gradstep.engine import _dual
    with fwAD.dual_level():
        x = fwAD.make_dual(_t([1.0, 2.0]), _t([1.0, 1.0]))
        for _ in range(50):
            x = x * 1.5
        assert len(_dual.tangents) <= 3
        assert fwAD.tangent_of(x).tolist() == [1.5 ** 50] * 2
