"""Elementwise ops: PyTorch's grad_fn names and edges, values, scalar operands, dtypes."""
import sys
from pathlib import Path

import numpy as np
import pytest

sys.path.insert(0, str(Path(__file__).parent))
from names import chain, env

import gradstep.engine as torch

ACC = "AccumulateGrad"
CASES = [
    ("a+b", "AddBackward0", [ACC, ACC]), ("a+2", "AddBackward0", [ACC, None]),
    ("2+a", "AddBackward0", [ACC, None]), ("a-b", "SubBackward0", [ACC, ACC]),
    ("2-a", "RsubBackward1", [ACC]), ("a*b", "MulBackward0", [ACC, ACC]),
    ("2*a", "MulBackward0", [ACC, None]), ("a/b", "DivBackward0", [ACC, ACC]),
    ("a/2", "DivBackward0", [ACC, None]), ("2/a", "MulBackward0", ["ReciprocalBackward0", None]),
    ("-a", "NegBackward0", [ACC]), ("a**2", "PowBackward0", [ACC]),
    ("a**b", "PowBackward1", [ACC, ACC]), ("2**a", "PowBackward2", [ACC]),
    ("a.square()", "PowBackward0", [ACC]), ("a.abs()", "AbsBackward0", [ACC]),
    ("a.exp()", "ExpBackward0", [ACC]), ("a.log()", "LogBackward0", [ACC]),
    ("a.sqrt()", "SqrtBackward0", [ACC]), ("a.sin()", "SinBackward0", [ACC]),
    ("a.cos()", "CosBackward0", [ACC]), ("a.tan()", "TanBackward0", [ACC]),
    ("a.tanh()", "TanhBackward0", [ACC]), ("a.sigmoid()", "SigmoidBackward0", [ACC]),
    ("torch.relu(a)", "ReluBackward0", [ACC]), ("a.clamp(0, 1)", "ClampBackward1", [ACC]),
    ("a.clamp(min=0)", "ClampBackward1", [ACC]), ("a.log1p()", "Log1PBackward0", [ACC]),
    ("torch.maximum(a, b)", "MaximumBackward0", [ACC, ACC]),
    ("torch.max(a, b)", "MaximumBackward0", [ACC, ACC]),
    ("torch.where(a > 1, a, b)", "WhereBackward0", [ACC, ACC]),
    ("a.floor()", "FloorBackward0", [ACC]), ("a.exp().exp()", "ExpBackward0", ["ExpBackward0"]),
    ("a.add(b, alpha=2)", "AddBackward0", [ACC, ACC]),
    ("torch.rsub(a, 2)", "RsubBackward1", [ACC]),
]


@pytest.mark.parametrize("expr,name,nexts", CASES, ids=[c[0] for c in CASES])
def test_grad_fn_names_match_pytorch(expr, name, nexts):
    assert chain(eval(expr, env())) == (name, nexts)


def test_scalar_saved_as_wrapped_tensor_and_self_skipped():
    e = env()
    y = e["a"] * 2
    assert y.grad_fn._saved_other.item() == 2 and y.grad_fn._saved_self is None
    assert type(y.grad_fn)._saved_names == ("other", "self")
    assert type(y.grad_fn)._rule == "grad * other, grad * self"


def test_values_match_numpy():
    x = np.array([0.5, 1.0, 2.0], dtype=np.float32)
    t = torch.tensor(x)
    for fn in ("exp", "log", "sqrt", "sin", "cos", "tanh"):
        np.testing.assert_allclose(getattr(t, fn)().numpy(), getattr(np, fn)(x), rtol=1e-6)
    np.testing.assert_allclose(t.sigmoid().numpy(), 1 / (1 + np.exp(-x)), rtol=1e-6)
    assert t.exp().dtype is torch.float32


def test_integer_tensors():
    i = torch.tensor([1, 2, 3])
    assert (i * 2).dtype is torch.int64 and (i * 2).tolist() == [2, 4, 6]
    assert i.exp().dtype is torch.float32 and (i / 2).tolist() == [0.5, 1.0, 1.5]
    assert (i // 2).tolist() == [0, 1, 1] and (i > 1).tolist() == [False, True, True]


def test_clamp_gradient_is_zero_outside():
    x = torch.tensor([-2.0, 0.5, 2.0], requires_grad=True)
    x.clamp(-1, 1).sum().backward()
    assert x.grad.tolist() == [0.0, 1.0, 0.0]


def test_relu_gradient_and_abs():
    x = torch.tensor([-1.0, 2.0], requires_grad=True)
    (x.relu() + x.abs()).sum().backward()
    assert x.grad.tolist() == [-1.0, 2.0]


def test_broadcast_gradient_is_reduced():
    w = torch.ones(2, 3, requires_grad=True)
    b = torch.ones(3, requires_grad=True)
    (w * b + b).sum().backward()
    assert b.grad.tolist() == [4.0, 4.0, 4.0] and w.grad.shape == (2, 3)


def test_float32_exp_rounds_like_pytorch():
    # PyTorch 2.13 prints 2.7182817459106445 (e correctly rounded to float32); numpy's float32
    # kernel gives the next float up
    assert torch.tensor(1.0).exp().item() == 2.7182817459106445
    assert torch.tensor([0.5]).sigmoid().item() == 0.622459352016449



@pytest.mark.parametrize("expr,shown,dtype", [
    ("x * 3", "tensor(3)", torch.int64), ("x * 3.5", "tensor(3.5000, dtype=torch.float64)",
                                          torch.float64),
    ("x / 2", "tensor(2)", torch.int64), ("2 / x", "tensor(2)", torch.int64),
    ("x * True", "tensor(True)", torch.bool), ("x.mul_(0.5)", None, torch.float64),
    ("x * torch.tensor(3.0)", "tensor(3.)", torch.float32)])
def test_saved_wrapped_number_is_shown_as_pytorch_keeps_it(expr, shown, dtype):
    x = torch.tensor([1.0, 2.0], requires_grad=True) * 1
    y = eval(expr, {"x": x, "torch": torch})
    saved = y.grad_fn._saved_other
    assert saved.dtype == dtype and saved.shape == () and not saved.requires_grad
    assert shown is None or repr(saved) == shown
    assert y.grad_fn._saved_other is saved      # one object, as PyTorch's


def test_wrapped_number_computes_in_the_tensor_dtype():
    x = torch.tensor([1.0, 2.0], requires_grad=True)
    y = x * 0.1
    assert y.dtype == torch.float32 and y.grad_fn._saved_other.item() == 0.1
    y.sum().backward()
    assert x.grad.tolist() == [np.float32(0.1).item()] * 2
