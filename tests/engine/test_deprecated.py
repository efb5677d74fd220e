"""The scalar-first overloads old tutorials use (`p.data.add_(-lr, p.grad)`): the same result
as the keyword form, one deprecation warning per process for all of them, PyTorch's errors."""
import warnings

import numpy as np
import pytest

import gradstep.engine as torch
from gradstep.engine import messages


@pytest.fixture(autouse=True)
def fresh_process():
    messages.forget_warnings()      # each test starts as a new program would
    yield
    messages.forget_warnings()


def caught(fn):
    with warnings.catch_warnings(record=True) as seen:
        warnings.simplefilter("always")
        result = fn()
    return result, [str(w.message) for w in seen]


def test_scalar_first_is_the_keyword_form_and_warns_once_for_every_overload():
    t = torch.tensor([1.0, 2.0])
    u = torch.tensor([3.0, 4.0])
    out, first = caught(lambda: t.clone().addcmul_(2, u, u))
    assert out.tolist() == t.addcmul(u, u, value=2).tolist() == [19.0, 34.0]
    assert first == ["This overload of addcmul_ is deprecated:\n"
                     "\taddcmul_(Number value, Tensor tensor1, Tensor tensor2)\n"
                     "Consider using one of the following signatures instead:\n"
                     "\taddcmul_(Tensor tensor1, Tensor tensor2, *, Number value = 1)"]
    # a different overload later in the same program is quiet, as in PyTorch
    out, later = caught(lambda: torch.sub(t, 2, u))
    assert out.tolist() == [-5.0, -6.0] and later == []


def test_the_function_form_names_input_and_out():
    t = torch.tensor([1.0, 2.0])
    _, seen = caught(lambda: torch.add(t, 3, t))
    assert seen[0].splitlines()[1] == ("\tadd(Tensor input, Number alpha, Tensor other, *, "
                                       "Tensor out = None)")


def test_scale_positional_tensors_by_keyword_and_zero_d_scale():
    t = torch.tensor([1.0, 2.0])
    assert t.add(2, other=t).tolist() == [3.0, 6.0]
    assert t.addcdiv(2, t, tensor2=t + 1).tolist() == pytest.approx([2.0, 10 / 3])
    assert t.add(torch.tensor(2.0), t).tolist() == [3.0, 6.0]
    assert t.add(2, 3).tolist() == [7.0, 8.0]          # a number as `other` too


def test_the_gradient_follows_the_scale():
    w = torch.tensor([1.0, 2.0], requires_grad=True)
    y = torch.ones(2).add(3, w * w)
    assert y.grad_fn.name() == "AddBackward0"
    y.sum().backward()
    assert w.grad.tolist() == [6.0, 12.0]


@pytest.mark.parametrize("call, error, words", [
    (lambda t: t.add(t, 2), TypeError, "add() takes 1 positional argument but 2 were given"),
    (lambda t: torch.add(t, t, 2), TypeError,
     "add() takes 2 positional arguments but 3 were given"),
    (lambda t: t.add(2, t, alpha=3), TypeError,
     "add() received an invalid combination of arguments - got unrecognized keyword "
     "arguments: alpha"),
    (lambda t: t.addcmul(2, t, t, tensor1=t), TypeError,
     "addcmul() received an invalid combination of arguments - got unrecognized keyword "
     "arguments: tensor1"),
    (lambda t: t.addcmul(2, t, tensor1=t), TypeError,
     "addcmul(): argument 'tensor1' (position 1) must be Tensor, not int"),
    (lambda t: t.add(True, t), RuntimeError, "Boolean alpha only supported for Boolean results."),
    (lambda t: t.sub(t, alpha=True), RuntimeError,
     "Boolean alpha only supported for Boolean results."),
    (lambda t: torch.tensor([1, 2]).add(torch.tensor([1, 2]), alpha=0.5), RuntimeError,
     "For integral input tensors, argument alpha must not be a floating point number."),
    (lambda t: t.add(t, alpha=1j), RuntimeError,
     "For non-complex input tensors, argument alpha must not be a complex number."),
])
def test_pytorchs_errors(call, error, words):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        with pytest.raises(error) as info:
            call(torch.tensor([1.0, 2.0]))
    assert str(info.value) == words


def test_the_keyword_forms_are_untouched():
    t = torch.tensor([1.0, 2.0])
    result, seen = caught(lambda: (t.add(t, alpha=2), t.sub(other=t, alpha=2),
                                   torch.addcmul(t, t, t, value=0.5)))
    assert [r.tolist() for r in result] == [[3.0, 6.0], [-1.0, -2.0], [1.5, 4.0]]
    assert seen == []
    ints = torch.tensor([1, 2])
    assert np.array_equal(ints.add(ints, alpha=3).numpy(), [4, 8])


def test_old_spellings_warn_every_call_and_do_the_in_place_work():
    w = torch.empty(2, 2)
    for _ in range(2):                  # a FutureWarning each time, not once per process
        out, seen = caught(lambda: torch.nn.init.constant(w, 0.5))
        assert out is w and w.tolist() == [[0.5, 0.5], [0.5, 0.5]]
        assert seen == ["`nn.init.constant` is now deprecated in favor of `nn.init.constant_`."]
    assert torch.nn.init.xavier_uniform.__name__ == "xavier_uniform"
    p = torch.nn.Parameter(torch.ones(2))
    p.grad = torch.tensor([3.0, 4.0])
    total, seen = caught(lambda: torch.nn.utils.clip_grad_norm([p], 1.0))
    assert total.item() == 5.0 and p.grad.tolist() == pytest.approx([0.6, 0.8])
    assert seen == ["`torch.nn.utils.clip_grad_norm` is now deprecated in favor of "
                    "`torch.nn.utils.clip_grad_norm_`."]


def test_range_includes_its_end_and_warns():
    out, seen = caught(lambda: torch.range(1, 2, 0.25))
    assert out.tolist() == [1.0, 1.25, 1.5, 1.75, 2.0] and out.dtype is torch.float32
    assert seen and seen[0].startswith("torch.range is deprecated")
    with pytest.raises(RuntimeError, match="step must be nonzero"):
        torch.range(0, 1, 0)
