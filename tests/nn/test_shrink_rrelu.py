"""hardshrink, softshrink and rrelu against PyTorch 2.13: values, nodes, gradients, slopes.

Expected values were printed by real PyTorch 2.13 (CPU) in the development-only torch venv.
"""
import numpy as np
import pytest

import gradstep.engine as torch
import gradstep.engine.nn.functional as F
from gradstep.engine import nn

X = [-1.0, -0.5, -0.2, 0.0, 0.3, 0.5, 2.0]


def test_softshrink_values_keep_the_sign_of_zeroed_negatives():
    y = F.softshrink(torch.tensor(X))
    assert y.tolist() == [-0.5, -0.0, -0.0, 0.0, 0.0, 0.0, 1.5]
    assert np.signbit(y._data[1]) and not np.signbit(y._data[3])


@pytest.mark.parametrize("f,name", [(F.hardshrink, "Hardshrink"), (F.softshrink, "Softshrink")])
def test_shrink_nodes_and_gradients(f, name):
    x = torch.tensor(X, requires_grad=True)
    y = f(x, 0.25)
    assert type(y.grad_fn).__name__ == f"{name}Backward0" and y.grad_fn._saved_lambd == 0.25
    g, = torch.autograd.grad(y.sum(), x, create_graph=True)
    assert g.tolist() == [1.0, 1.0, 0.0, 0.0, 1.0, 1.0, 1.0]
    assert type(g.grad_fn).__name__ == f"{name}BackwardBackward0"


def test_hardshrink_boundary_is_zeroed():
    # PyTorch: tensor([-1.,  0.,  0.,  0.,  0.,  0.,  2.]) for lambd=0.5 (|x| == 0.5 is cut)
    assert F.hardshrink(torch.tensor(X)).tolist() == [-1.0, 0, 0, 0, 0, 0, 2.0]


def test_softshrink_negative_lambda_message():
    with pytest.raises(RuntimeError) as info:
        F.softshrink(torch.tensor(X), -1.0)
    assert str(info.value) == ("lambda must be in range [0, 3.40282e+38] for input dtype Float, "
                               "but found -1")


def test_rrelu_eval_uses_the_mean_slope():
    x = torch.tensor(X, requires_grad=True)
    y = nn.RReLU(0.1, 0.3).eval()(x)
    assert type(y.grad_fn).__name__ == "RreluWithNoiseBackward0"
    assert y.grad_fn._saved_training is False
    y.sum().backward()
    # PyTorch 2.13: x <= 0 (zero included) gets the slope 0.2
    np.testing.assert_allclose(x.grad.tolist(), [0.2] * 4 + [1.0] * 3, rtol=1e-7)


def test_rrelu_training_slopes_follow_the_seed():
    torch.manual_seed(0)
    x = torch.tensor(X, requires_grad=True)
    y = F.rrelu(x, training=True)
    # PyTorch 2.13 after manual_seed(0): [-0.3271, -0.1362, -0.0441, 0.0, 0.3, 0.5, 2.0]
    np.testing.assert_allclose(y.tolist()[:3], [-0.3271, -0.1362, -0.0441], atol=1e-4)
    noise = y.grad_fn._saved_noise
    y.sum().backward()
    assert x.grad.tolist() == noise.tolist() and noise.tolist()[4:] == [1.0, 1.0, 1.0]
    assert all(1 / 8 <= s <= 1 / 3 for s in noise.tolist()[:4])


def test_rrelu_bounds_checked_first():
    with pytest.raises(RuntimeError, match="Lower bound should be less than or equal"):
        F.rrelu(torch.tensor([1, -2]), 0.5, 0.1)
    with pytest.raises(NotImplementedError, match='"leaky_relu_cpu" not implemented'):
        F.rrelu(torch.tensor([1, -2]))


def test_module_reprs():
    assert repr(nn.Hardshrink()) == "Hardshrink(0.5)"
    assert repr(nn.RReLU(inplace=True)) == ("RReLU(lower=0.125, upper=0.3333333333333333, "
                                            "inplace=True)")
