"""torch.autograd.functional: jacobian, hessian, vjp, jvp, hvp, vhp as PyTorch 2.13 returns them.

Numbers, shapes, tuple nesting and messages were printed by PyTorch 2.13 for the same calls
in the development-only torch venv and pasted here.
"""
import numpy as np
import pytest

import gradstep.engine as torch
from gradstep.engine.autograd.functional import hessian, hvp, jacobian, jvp, vhp, vjp

W = torch.tensor([[1., 2.], [3., 4.], [5., 6.]])


def test_jacobian_of_an_elementwise_square_is_diagonal():
    j = jacobian(lambda x: x ** 2, torch.tensor([1., 2.]))
    assert j.tolist() == [[2.0, 0.0], [0.0, 4.0]]
    assert not j.requires_grad and j.grad_fn is None


def test_jacobian_matches_pytorch_numbers():
    j = jacobian(lambda x: torch.tanh(W @ x), torch.tensor([0.1, -0.2]))
    np.testing.assert_allclose(j.numpy(), [[0.9151369333267212, 1.8302738666534424],
                                           [2.3593430519104004, 3.1457908153533936],
                                           [3.1736979484558105, 3.8084373474121094]],
                               rtol=1e-6)


def test_jacobian_shapes_and_tuple_nesting():
    assert jacobian(lambda x: x ** 2, torch.ones(2, 2)).shape == (2, 2, 2, 2)
    assert jacobian(lambda x: x ** 2, torch.tensor(3.)).tolist() == 6.0
    assert jacobian(lambda x: x.sum(), torch.tensor([1., 2.])).tolist() == [1.0, 1.0]
    out = jacobian(lambda x, y: (x * y, x + y), (torch.tensor([1., 2.]), torch.tensor([3., 4.])))
    assert isinstance(out, tuple) and len(out) == 2 and len(out[0]) == 2
    assert out[0][0].tolist() == [[3.0, 0.0], [0.0, 4.0]]
    assert out[0][1].tolist() == [[1.0, 0.0], [0.0, 2.0]]
    assert out[1][1].tolist() == [[1.0, 0.0], [0.0, 1.0]]


def test_jacobian_of_a_constant_is_zero_unless_strict():
    assert jacobian(lambda x: x * 0 + 1, torch.tensor([1., 2.])).tolist() == [[0.0, 0.0]] * 2
    with pytest.raises(RuntimeError) as info:
        jacobian(lambda x: x.detach(), torch.tensor([1.]), strict=True)
    assert str(info.value) == ("Output 0 of the user-provided function does not require "
                               "gradients. The outputs must be computed in a differentiable "
                               "manner from the input when running in strict mode.")


def test_jacobian_leaves_the_callers_tensors_alone():
    x = torch.tensor([1., 2.], requires_grad=True)
    jacobian(lambda t: t ** 2, x)
    assert x.grad is None


def test_create_graph_keeps_results_differentiable():
    j = jacobian(lambda x: x ** 2, torch.tensor([1., 2.]), create_graph=True)
    assert type(j.grad_fn).__name__ == "ViewBackward0"
    out, g = vjp(lambda x: x ** 2, torch.tensor([1., 2.]), torch.tensor([1., 1.]),
                 create_graph=True)
    assert type(out.grad_fn).__name__ == "PowBackward0"
    assert type(g.grad_fn).__name__ == "MulBackward0"


def test_hessian():
    h = hessian(lambda x: (x ** 3).sum(), torch.tensor([1., 2.]))
    assert h.tolist() == [[6.0, 0.0], [0.0, 12.0]]
    h = hessian(lambda x: torch.sigmoid(W @ x).sum(), torch.tensor([0.1, -0.2]))
    np.testing.assert_allclose(h.numpy(), [[2.418876886367798, 3.0008373260498047],
                                           [3.0008373260498047, 3.7513298988342285]],
                               rtol=1e-6)
    hh = hessian(lambda x, y: (x ** 2 * y).sum(), (torch.tensor([1., 2.]), torch.tensor([3., 4.])))
    assert hh[0][0].tolist() == [[6.0, 0.0], [0.0, 8.0]]
    assert hh[0][1].tolist() == [[2.0, 0.0], [0.0, 4.0]]
    assert hh[1][1].tolist() == [[0.0, 0.0], [0.0, 0.0]]
    with pytest.raises(RuntimeError, match="^The Tensor returned by the function given to "
                                           "hessian should contain a single element$"):
        hessian(lambda x: x ** 2, torch.tensor([1., 2.]))


def test_vjp_and_jvp():
    out, g = vjp(lambda x: x ** 2, torch.tensor([1., 2.]), torch.tensor([1., 1.]))
    assert out.tolist() == [1.0, 4.0] and g.tolist() == [2.0, 4.0]
    out, g = vjp(lambda x: x.sum() * 2, torch.tensor([1., 2.]))
    assert out.item() == 6.0 and g.tolist() == [2.0, 2.0]
    outs, gs = vjp(lambda x, y: (x * y, x.exp()), (torch.tensor([1., 2.]), torch.tensor([3., 4.])),
                   (torch.tensor([1., 1.]), torch.tensor([0., 1.])))
    np.testing.assert_allclose(gs[0].numpy(), [3.0, 11.389056205749512], rtol=1e-6)
    assert gs[1].tolist() == [1.0, 2.0] and len(outs) == 2
    out, t = jvp(lambda x: x ** 2, torch.tensor([1., 2.]), torch.tensor([1., 0.]))
    assert t.tolist() == [2.0, 0.0]
    out, t = jvp(lambda x, y: x * y.sum(), (torch.tensor([1., 2.]), torch.tensor([3., 4.])),
                 (torch.tensor([1., 1.]), torch.tensor([0., 1.])))
    assert out.tolist() == [7.0, 14.0] and t.tolist() == [8.0, 9.0]


def test_hessian_vector_products():
    f = lambda x: (x ** 3).sum()  # noqa: E731
    out, hv = hvp(f, torch.tensor([1., 2.]), torch.tensor([1., 0.]))
    assert out.item() == 9.0 and hv.tolist() == [6.0, 0.0]
    assert vhp(f, torch.tensor([1., 2.]), torch.tensor([1., 0.]))[1].tolist() == [6.0, 0.0]


@pytest.mark.parametrize("call,kind,message", [
    (lambda: vjp(lambda x: x ** 2, torch.tensor([1., 2.])), RuntimeError,
     "The vector v can only be None if the user-provided function returns a single Tensor "
     "with a single element."),
    (lambda: jacobian(lambda x: 3.0, torch.tensor([1., 2.])), TypeError,
     "The outputs of the user-provided function given to jacobian must be either a Tensor or a "
     "tuple of Tensors but the given outputs of the user-provided function has type "
     "<class 'float'>."),
    (lambda: jvp(lambda x: x ** 2, torch.tensor([1., 2.]), torch.tensor([1., 0., 3.])),
     RuntimeError, "v has invalid size: should be torch.Size([2]) but got torch.Size([3])."),
    (lambda: vjp(lambda x: x, torch.tensor([1., 2.]), (torch.ones(2), torch.ones(2))),
     RuntimeError, "The given v should contain a single Tensor."),
])
def test_errors_in_pytorchs_words(call, kind, message):
    with pytest.raises(kind) as info:
        call()
    assert str(info.value) == message
