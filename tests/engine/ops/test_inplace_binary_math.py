"""xlogy_, atan2_, float_power_ and heaviside_: in place, the out-of-place op's node and values,
and PyTorch's argument rules."""
import numpy as np
import pytest

import gradstep.engine as torch

X = [0.5, 1.0, 2.0, 3.0]
Y = [0.5, 2.0, 1.5, 4.0]


@pytest.mark.parametrize("method,fn,name", [
    ("xlogy_", torch.xlogy, "XlogyBackward0"), ("atan2_", torch.atan2, "Atan2Backward0")])
def test_inplace_matches_out_of_place(method, fn, name):
    x = torch.tensor(X, requires_grad=True)
    y = torch.tensor(Y, requires_grad=True)
    z = x * 1
    got = getattr(z, method)(y)
    assert got is z and z._version == 1 and type(z.grad_fn).__name__ == name
    z.sum().backward()
    gx, gy = x.grad.tolist(), y.grad.tolist()
    x.grad = y.grad = None
    want = fn(x, y)
    assert z.tolist() == want.tolist()
    want.sum().backward()
    assert gx == x.grad.tolist() and gy == y.grad.tolist()


def test_float_power_inplace_wants_float64():
    with pytest.raises(RuntimeError) as info:
        torch.tensor([1.0]).float_power_(2)
    assert str(info.value) == ("the base given to float_power_ has dtype Float but the "
                               "operation's result requires dtype Double")
    d = torch.tensor([2.0, 3.0], dtype=torch.float64)
    assert d.float_power_(torch.tensor(3)).tolist() == [8.0, 27.0]


def test_heaviside_inplace_has_no_derivative():
    h = torch.tensor([-1.0, 0.0, 2.0], requires_grad=True) * 1
    h.heaviside_(torch.tensor([0.5]))
    assert h.tolist() == [0.0, 0.5, 1.0] and type(h.grad_fn).__name__ == "NotImplemented"
    with pytest.raises(RuntimeError, match="derivative for aten::heaviside_ is not implemented"):
        h.sum().backward()


def test_argument_rules():
    t = torch.tensor([1.0, 2.0])
    with pytest.raises(TypeError, match=r"atan2_\(\): argument 'other' \(position 1\) must be "
                                        "Tensor, not float"):
        t.atan2_(2.0)
    with pytest.raises(TypeError, match="heaviside_.*'values'"):
        t.heaviside_(0.5)
    with pytest.raises(RuntimeError, match="can't be cast to the desired output type Long"):
        torch.tensor([1, 2]).xlogy_(2.0)
    np.testing.assert_allclose(torch.tensor([1.0, 2.0]).xlogy_(2).tolist(),
                               [np.log(2), 2 * np.log(2)], rtol=1e-6)
