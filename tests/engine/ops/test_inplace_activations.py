"""In-place ELU/SELU/CELU and cumprod_: the node reads the output, and its gradients (first and
second order) equal the out-of-place op's."""
import numpy as np
import pytest

import gradstep.engine as torch
import gradstep.engine.nn.functional as F

X = [[-2.0, -0.5, 0.0], [0.25, 1.0, 3.0]]
PAIRS = [
    (lambda t: F.elu(t, 0.5), lambda t: F.elu(t, 0.5, inplace=True), "EluBackward1"),
    (F.selu, torch.selu_, "EluBackward1"),
    (lambda t: F.celu(t, 2.0), lambda t: F.celu(t, 2.0, inplace=True), "CeluBackward1"),
    (lambda t: t.cumprod(1), lambda t: t.cumprod_(1), "CumprodBackward0"),
]


@pytest.mark.parametrize("out_of_place,in_place,name", PAIRS)
def test_inplace_gradients_equal_out_of_place(out_of_place, in_place, name):
    x = torch.tensor(X, dtype=torch.float64, requires_grad=True)
    u = torch.tensor([[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]], dtype=torch.float64)
    want = out_of_place(x)
    y = x * 1
    got = in_place(y)
    assert got is y and type(got.grad_fn).__name__ == name and y._version == 1
    np.testing.assert_allclose(got.detach().numpy(), want.detach().numpy())
    (g1,) = torch.autograd.grad((want * u).sum(), x, create_graph=True)
    (g2,) = torch.autograd.grad((got * u).sum(), x, create_graph=True)
    np.testing.assert_allclose(g2.detach().numpy(), g1.detach().numpy(), rtol=1e-12)
    (h1,) = torch.autograd.grad(g1.sum(), x, allow_unused=True)
    (h2,) = torch.autograd.grad(g2.sum(), x, allow_unused=True)
    np.testing.assert_allclose(h2.numpy(), h1.numpy(), rtol=1e-12)


def test_inplace_elu_saves_the_output_not_the_input():
    y = torch.tensor(X, requires_grad=True) * 1
    F.celu(y, 0.5, inplace=True)
    # the saved output unpacks as a new tensor object with y's values, as in PyTorch
    saved = y.grad_fn._saved_result
    assert saved is not y and torch.equal(saved, y) and y.grad_fn._saved_alpha == 0.5
    assert not hasattr(y.grad_fn, "_saved_self")


def test_nn_elu_honours_inplace():
    y = torch.tensor(X) * 1
    assert torch.nn.ELU(inplace=True)(y) is y
    assert torch.nn.ELU()(y) is not y


def test_clamp_inplace_with_tensor_bounds_sends_gradients_to_the_winning_bound():
    x = torch.tensor([-2.0, 0.5, 3.0], requires_grad=True)
    lo = torch.tensor([-1.0, 1.0, 0.0], requires_grad=True)
    hi = torch.tensor([1.0, 2.0, 2.5], requires_grad=True)
    y = x * 1
    z = y.clamp_(lo, hi)
    assert z is y and type(z.grad_fn).__name__ == "ClampBackward0"
    assert z.tolist() == [-1.0, 1.0, 2.5]
    z.backward(torch.tensor([1.0, 2.0, 3.0]))
    assert x.grad.tolist() == [0.0, 0.0, 0.0]
    assert lo.grad.tolist() == [1.0, 2.0, 0.0] and hi.grad.tolist() == [0.0, 0.0, 3.0]


def test_clip_inplace_with_one_tensor_bound_has_a_none_edge():
    lo = torch.tensor([0.0, 0.0], requires_grad=True)
    y = torch.tensor([-1.0, 1.0], requires_grad=True) * 1
    torch.clip_(y, lo)
    assert y.grad_fn.next_functions[2] == (None, 0)


def test_inplace_saved_self_is_a_clone_of_the_value_before_the_write():
    w = torch.tensor([3.0, 4.0], requires_grad=True)
    y = torch.tensor([1.0, 2.0], requires_grad=True) * 1
    y.mul_(w)
    saved = y.grad_fn._saved_self
    assert type(saved.grad_fn).__name__ == "CloneBackward0" and saved.tolist() == [1.0, 2.0]
    assert type(y.grad_fn.next_functions[0][0]).__name__ == "MulBackward0"


def test_dir_of_a_node_lists_only_pytorch_saved_accessors():
    y = F.selu(torch.tensor(X, requires_grad=True) * 1, inplace=True)
    assert [a for a in dir(y.grad_fn) if a.startswith("_saved")] == [
        "_saved_alpha", "_saved_input_scale", "_saved_result", "_saved_scale"]
