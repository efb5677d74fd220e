"""Tensor surface: construction and dtypes, promotion, conversions, leaves and requires_grad,
storage sharing (.data, detach), version counters, warnings and errors in PyTorch's words."""
import warnings

import numpy as np
import pytest

import gradstep.engine as torch
from gradstep.engine import messages


def test_dtype_inference_and_defaults():
    assert torch.tensor([1, 2]).dtype is torch.int64
    assert torch.tensor([1.0, 2]).dtype is torch.float32
    assert torch.tensor(True).dtype is torch.bool
    assert torch.tensor(np.zeros(2)).dtype is torch.float64
    assert torch.zeros(2).dtype is torch.float32 and torch.arange(3).dtype is torch.int64
    assert torch.arange(3.0).dtype is torch.float32 and torch.full((2,), 3).dtype is torch.int64
    assert repr(torch.float32) == "torch.float32" and repr(torch.ones(2, 3).shape) == \
        "torch.Size([2, 3])"


@pytest.mark.parametrize("expr,dtype", [
    ("torch.tensor([1, 2]) + 2.5", "float32"),
    ("torch.tensor([1, 2]) + torch.tensor(2.5, dtype=torch.float64)", "float64"),
    ("torch.tensor([1., 2]) + torch.tensor([2], dtype=torch.float64)", "float64"),
    ("torch.tensor([1., 2]) + torch.tensor(2, dtype=torch.float64)", "float32"),
    ("torch.tensor([True]) + 1", "int64"),
    ("torch.tensor([1, 2]) / 2", "float32"),
    ("torch.tensor([1, 2]).sum()", "int64"),
    ("torch.tensor([1, 2]).exp()", "float32"),
])
def test_promotion_matches_pytorch(expr, dtype):
    assert eval(expr).dtype is getattr(torch, dtype)


def test_legacy_constructors():
    assert torch.FloatTensor([[2, 3]]).dtype is torch.float32
    assert torch.LongTensor([1]).dtype is torch.int64
    assert torch.Tensor(2, 3).shape == (2, 3) and torch.Tensor([1, 2]).tolist() == [1.0, 2.0]


def test_requires_grad_rules():
    with pytest.raises(RuntimeError, match="^Only Tensors of floating point and complex"):
        torch.tensor([1, 2], requires_grad=True)
    with pytest.raises(RuntimeError, match="^only Tensors of floating point dtype"):
        torch.tensor([1, 2]).requires_grad_()
    x = torch.ones(2, requires_grad=True)
    y = x * 2
    assert x.is_leaf and not y.is_leaf and y.requires_grad
    with pytest.raises(RuntimeError, match="^you can only change requires_grad flags of leaf"):
        y.requires_grad = False
    with pytest.raises(RuntimeError, match=r"^Can't call numpy\(\) on Tensor that requires"):
        x.numpy()


def test_nonleaf_grad_warns():
    y = torch.ones(2, requires_grad=True) * 3
    with pytest.warns(UserWarning) as w:
        assert y.grad is None
    assert str(w[0].message) == messages.NONLEAF_GRAD_WARNING
    assert w[0].filename == __file__        # attributed to the user's line


def test_scalar_conversion_warns_only_for_float():
    # PyTorch warns once a process; an earlier test in this process may have used that once
    messages.forget_warnings()
    x = torch.tensor([1.0, 2.0], requires_grad=True)
    with pytest.warns(UserWarning, match="Converting a tensor with requires_grad=True"):
        assert float(x.sum()) == 3.0
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        assert x.sum().item() == 3.0 and int(x.sum()) == 3


def test_conversions():
    t = torch.tensor([[1.0, 2.0], [3.0, 4.0]])
    assert t.tolist() == [[1.0, 2.0], [3.0, 4.0]] and t.size(1) == 2 and t.dim() == 2
    assert t.numel() == 4 and len(t) == 2 and [r.tolist() for r in t] == [[1.0, 2.0],
                                                                         [3.0, 4.0]]
    assert type(torch.tensor(3).item()) is int and float(torch.tensor(2.5)) == 2.5
    with pytest.raises(RuntimeError, match="a Tensor with 4 elements cannot be converted"):
        t.item()


def test_detach_and_data_share_storage():
    x = torch.tensor([1.0, 2.0], requires_grad=True)
    d = x.detach()
    d[0] = 7.0
    assert x.tolist() == [7.0, 2.0] and x._version == 1 and not d.requires_grad
    before = x._version
    x.data[1] = 5.0
    assert x.tolist() == [7.0, 5.0] and x._version == before


def test_inplace_on_leaf_and_view_of_leaf_refused():
    x = torch.tensor([1.0, 2.0], requires_grad=True)
    with pytest.raises(RuntimeError, match="^a leaf Variable that requires grad is being used"):
        x.add_(1)
    with pytest.raises(RuntimeError, match="^a view of a leaf Variable that requires grad"):
        x[0].add_(1)


def test_inplace_rebases_history_and_bumps_version():
    x = torch.tensor([1.0, 2.0], requires_grad=True)
    y = x * 1
    y.mul_(x)
    assert y._version == 1 and type(y.grad_fn).__name__ == "MulBackward0"
    assert [type(n).__name__ for n, _ in y.grad_fn.next_functions] == ["MulBackward0",
                                                                       "AccumulateGrad"]
    y.sum().backward()
    assert x.grad.tolist() == [2.0, 4.0]


def test_setitem_records_copyslices():
    w = torch.tensor([2.0, 5.0], requires_grad=True)
    buf = torch.zeros(4)
    buf[1] = w[0] * 3
    assert type(buf.grad_fn).__name__ == "CopySlices" and not buf.is_leaf
    assert [type(n).__name__ for n, _ in buf.grad_fn.next_functions] == ["NoneType",
                                                                         "MulBackward0"]
    buf[2:] = w ** 2
    buf.sum().backward()
    assert w.grad.tolist() == [7.0, 10.0]


def test_manual_seed_repeats():
    torch.manual_seed(3)
    a = torch.randn(4)
    torch.manual_seed(3)
    assert torch.equal(a, torch.randn(4)) and a.dtype is torch.float32


def test_broadcast_error_text():
    with pytest.raises(RuntimeError, match=r"^The size of tensor a \(3\) must match the size "
                                           r"of tensor b \(2\) at non-singleton dimension 0$"):
        torch.ones(3) + torch.ones(2)


def test_uids_are_counters():
    a, b = torch.ones(1), torch.ones(1)
    assert b._uid > a._uid
    x = torch.ones(1, requires_grad=True)
    n1, n2 = (x * 2).grad_fn, (x * 3).grad_fn
    assert n2._uid > n1._uid


def test_inplace_on_an_indexed_view_rebases_the_base():
    x = torch.tensor([1.0, 2.0, 3.0], requires_grad=True)
    y = x * 2
    y[0].mul_(10)
    assert y.tolist() == [20.0, 4.0, 6.0] and type(y.grad_fn).__name__ == "CopySlices"
    y.sum().backward()
    assert x.grad.tolist() == [20.0, 2.0, 2.0]


def test_augmented_assignment_on_an_element():
    x = torch.tensor([1.0, 2.0], requires_grad=True)
    y = x * 1
    y[1] *= 3
    y.sum().backward()
    assert x.grad.tolist() == [1.0, 3.0]


def test_deepcopy_of_leaves_only():
    import copy
    x = torch.tensor([1.0, 2.0], requires_grad=True)
    (x * 2).sum().backward()
    c = copy.deepcopy(x)
    assert c is not x and c.requires_grad and c.grad.tolist() == [2.0, 2.0]
    with pytest.raises(RuntimeError, match="^Only Tensors created explicitly by the user"):
        copy.deepcopy(x * 2)


def test_grad_assignment_is_checked():
    x = torch.tensor([1.0, 2.0], requires_grad=True)
    with pytest.raises(RuntimeError, match=r"^attempting to assign a gradient of size '\[3\]' "
                                           r"to a tensor of size '\[2\]'"):
        x.grad = torch.ones(3)
    with pytest.raises(RuntimeError, match="^attempting to assign a gradient with dtype "
                                           "'double' to a tensor with grad_dtype 'Float'"):
        x.grad = torch.ones(2, dtype=torch.float64)
    x.grad = torch.ones(2)
    assert x.grad.tolist() == [1.0, 1.0]


def test_scalar_conversions_of_many_elements_and_formatting():
    with pytest.raises(ValueError, match="^only one element tensors can be converted"):
        float(torch.ones(3))
    s = (torch.tensor([1.0, 2.0], requires_grad=True) * 3).sum()
    assert f"{s}" == "9.0" and f"{s:.2f}" == "9.00"
    assert torch.tensor([1e-300, 1e300], dtype=torch.float64).tolist() == [1e-300, 1e300]


def test_setitem_on_a_leaf_names_the_view():
    w = torch.tensor([1.0, 2.0], requires_grad=True)
    with pytest.raises(RuntimeError, match="^a view of a leaf Variable"):
        w[0] = 5.0
    with pytest.raises(RuntimeError, match="^a leaf Variable that requires grad"):
        w[[0]] = 5.0


def test_create_graph_accumulation_is_a_copy_node():
    x = torch.tensor(2.0, requires_grad=True)
    with pytest.warns(UserWarning):
        (x ** 3).backward(create_graph=True)
    assert x.grad.item() == 12.0 and type(x.grad.grad_fn).__name__ == "CopyBackwards"


def test_type_names_read_as_pytorchs():
    x = torch.ones(2, requires_grad=True)
    y = x * 2
    assert str(type(x)) == "<class 'torch.Tensor'>"
    assert str(type(x.shape)) == "<class 'torch.Size'>"
    assert str(type(y.grad_fn)) == "<class 'MulBackward0'>"
    assert str(type(y.grad_fn.next_functions[0][0])) == "<class 'AccumulateGrad'>"
    assert str(type(torch.float32)) == "<class 'torch.dtype'>"
    assert str(type(torch.no_grad())) == "<class 'torch.autograd.grad_mode.no_grad'>"
    assert y.grad_fn(torch.ones(2))[0].tolist() == [2.0, 2.0]
    assert x.exp().grad_fn(torch.ones(2)).shape == (2,)   # one input: a bare tensor
