"""Reductions: PyTorch's overload names (full vs dim), saved attributes, values and errors."""
import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).parent))
from names import chain, env

import gradstep.engine as torch

ACC = "AccumulateGrad"
CASES = [
    ("a.sum()", "SumBackward0"), ("a.sum(0)", "SumBackward1"),
    ("M.sum(dim=1, keepdim=True)", "SumBackward1"), ("a.mean()", "MeanBackward0"),
    ("M.mean(0)", "MeanBackward1"), ("a.max()", "MaxBackward1"), ("M.max(0)[0]", "MaxBackward0"),
    ("M.max(dim=1).values", "MaxBackward0"), ("a.min()", "MinBackward1"),
    ("a.norm()", "LinalgVectorNormBackward0"), ("M.norm(dim=1)", "LinalgVectorNormBackward0"),
    ("a.prod()", "ProdBackward0"), ("M.prod(1)", "ProdBackward1"),
    ("a.softmax(0)", "SoftmaxBackward0"), ("torch.softmax(a, dim=0)", "SoftmaxBackward0"),
    ("a.log_softmax(0)", "LogSoftmaxBackward0"), ("a.std()", "StdBackward0"),
    ("a.var()", "VarBackward0"), ("a.cumsum(0)", "CumsumBackward0"),
    ("torch.sum(M)", "SumBackward0"), ("M.sum((0, 1))", "SumBackward1"),
]


@pytest.mark.parametrize("expr,name", CASES, ids=[c[0] for c in CASES])
def test_grad_fn_names_match_pytorch(expr, name):
    assert chain(eval(expr, env())) == (name, [ACC])


def test_saved_attributes():
    e = env()
    s = e["a"].sum(0).grad_fn
    assert (s._saved_dim, s._saved_keepdim, s._saved_self_sym_sizes) == ((0,), False, (3,))
    m = e["a"].mean(0).grad_fn
    assert m._saved_self_sym_numel == 3


def test_max_with_dim_returns_values_and_indices():
    t = torch.tensor([[1.0, 5.0], [3.0, 2.0]])
    r = t.max(1)
    assert r.values.tolist() == [5.0, 3.0] and r.indices.tolist() == [1, 0]
    assert repr(r).startswith("torch.return_types.max(\nvalues=tensor([5., 3.]),")


def test_max_gradient_goes_to_argmax_and_ties_split():
    x = torch.tensor([1.0, 3.0, 3.0], requires_grad=True)
    x.max().backward()
    assert x.grad.tolist() == [0.0, 0.5, 0.5]
    m = torch.tensor([[1.0, 4.0], [5.0, 2.0]], requires_grad=True)
    m.max(dim=1).values.sum().backward()
    assert m.grad.tolist() == [[0.0, 1.0], [1.0, 0.0]]


def test_mean_gradient_is_exact_in_float32():
    y = torch.randn(5, 5, requires_grad=True)
    y.mean().backward()
    assert torch.equal(y.grad, torch.full((5, 5), 0.04))


def test_errors():
    with pytest.raises(IndexError, match=r"^Dimension out of range \(expected to be in range "
                                         r"of \[-1, 0\], but got 1\)$"):
        torch.ones(2).sum(1)
    with pytest.raises(RuntimeError, match="^mean\\(\\): could not infer output dtype. Input "
                                           "dtype must be either a floating point or complex "
                                           "dtype. Got: Long$"):
        torch.tensor([1, 2]).mean()
