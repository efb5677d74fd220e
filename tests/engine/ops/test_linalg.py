"""Matrix products: matmul dispatch records PyTorch's node chains; gradients; error texts."""
import sys
from pathlib import Path

import numpy as np
import pytest

sys.path.insert(0, str(Path(__file__).parent))
from names import chain, env

import gradstep.engine as torch

ACC = "AccumulateGrad"
CASES = [
    ("M @ N", "MmBackward0", [ACC, ACC]), ("M.mm(N)", "MmBackward0", [ACC, ACC]),
    ("M @ a", "MvBackward0", [ACC, ACC]), ("a @ b", "DotBackward0", [ACC, ACC]),
    ("a.dot(b)", "DotBackward0", [ACC, ACC]), ("torch.matmul(a, N)", "SqueezeBackward4",
                                               ["MmBackward0"]),
    ("torch.randn(2, 2, 3, requires_grad=True) @ torch.randn(3, 4)", "UnsafeViewBackward0",
     ["MmBackward0"]),
    ("torch.randn(2, 2, 3, requires_grad=True) @ torch.randn(2, 3, 4)", "UnsafeViewBackward0",
     ["BmmBackward0"]),
]


@pytest.mark.parametrize("expr,name,nexts", CASES, ids=[c[0] for c in CASES])
def test_grad_fn_names_match_pytorch(expr, name, nexts):
    assert chain(eval(expr, env())) == (name, nexts)


def test_vector_matrix_chain_has_unsqueeze():
    e = env()
    mm = (e["a"] @ e["N"]).grad_fn.next_functions[0][0]
    assert type(mm.next_functions[0][0]).__name__ == "UnsqueezeBackward0"


@pytest.mark.parametrize("sa,sb", [((2, 3), (3, 4)), ((3,), (3, 2)), ((2, 3), (3,)),
                                   ((3,), (3,)), ((2, 2, 3), (3, 4)), ((2, 2, 3), (2, 3, 1)),
                                   ((3,), (2, 3, 4)), ((2, 1, 2, 3), (3, 3, 2))])
def test_matmul_values_and_gradients_match_numpy(sa, sb):
    rng = np.random.default_rng(0)
    x, y = rng.normal(size=sa), rng.normal(size=sb)
    a = torch.tensor(x, requires_grad=True)
    b = torch.tensor(y, requires_grad=True)
    out = a @ b
    np.testing.assert_allclose(out.detach().numpy(), x @ y, rtol=1e-12)
    out.sum().backward()
    assert a.grad.shape == a.shape and b.grad.shape == b.shape
    # sum(x @ y) is linear in x, so a forward difference is exact up to rounding
    for t, arr, other in ((a, x, lambda v: v @ y), (b, y, lambda v: x @ v)):
        bumped = arr.copy().reshape(-1)
        bumped[-1] += 1.0
        change = other(bumped.reshape(arr.shape)).sum() - other(arr).sum()
        assert abs(t.grad.numpy().reshape(-1)[-1] - change) < 1e-9


@pytest.mark.parametrize("expr,message", [
    ("torch.ones(2, 3).mv(torch.ones(2))", "size mismatch, got input (2), mat (2x3), vec (2)"),
    ("torch.ones(3).dot(torch.ones(2))", "inconsistent tensor size, expected tensor [3] and "
     "src [2] to have the same number of elements, but got 3 and 2 elements respectively"),
    ("torch.ones(2) @ torch.ones(3, 2)", "mat1 and mat2 shapes cannot be multiplied (1x2 and "
     "3x2)"),
    ("torch.ones(2, 3).mm(torch.ones(3))", "mat2 must be a matrix"),
    ("torch.ones(2, 3) @ torch.ones(2, 3)", "mat1 and mat2 shapes cannot be multiplied (2x3 "
     "and 2x3)"),
])
def test_errors(expr, message):
    with pytest.raises(RuntimeError) as e:
        eval(expr)
    assert str(e.value) == message
