"""The legacy tensor types of pre-0.4 tutorials: constructors, isinstance, Tensor.type."""
import numpy as np
import pytest

import gradstep.engine as torch


@pytest.mark.parametrize("name, dtype", [
    ("FloatTensor", torch.float32), ("DoubleTensor", torch.float64),
    ("HalfTensor", torch.float16), ("LongTensor", torch.int64), ("IntTensor", torch.int32),
    ("ShortTensor", torch.int16), ("CharTensor", torch.int8), ("ByteTensor", torch.uint8),
    ("BoolTensor", torch.bool)])
def test_each_type_builds_converts_and_recognises_its_dtype(name, dtype):
    cls = getattr(torch, name)
    assert cls.dtype is dtype and repr(cls) == f"<class 'torch.{name}'>"
    made = cls([1, 0])
    assert made.dtype is dtype and type(made) is torch.Tensor
    assert cls(2, 3).shape == (2, 3)
    converted = torch.tensor([1.0, 0.0]).type(cls)
    assert converted.dtype is dtype and converted.type() == f"torch.{name}"
    assert torch.tensor([1.0, 0.0]).type(f"torch.{name}").dtype is dtype
    assert isinstance(converted, cls)
    others = [c for c in ("FloatTensor", "LongTensor") if c != name]
    assert not isinstance(converted, getattr(torch, others[0]))
    assert not isinstance(converted, getattr(torch.cuda, name))


def test_the_cuda_types_exist_but_build_nothing():
    dtype = torch.cuda.FloatTensor if torch.cuda.is_available() else torch.FloatTensor
    assert dtype is torch.FloatTensor
    assert torch.cuda.FloatTensor.is_cuda and not torch.FloatTensor.is_cuda
    with pytest.raises(TypeError, match="type torch.cuda.FloatTensor not available"):
        torch.cuda.FloatTensor(2)
    with pytest.raises(RuntimeError, match="Cannot initialize CUDA without ATen_cuda"):
        torch.ones(2).type(torch.cuda.LongTensor)
    with pytest.raises(AttributeError, match="module 'torch.cuda' has no attribute 'nope'"):
        torch.cuda.nope


def test_a_float_conversion_stays_in_the_graph_an_integer_one_leaves_it():
    w = torch.tensor([1.5, -2.0], requires_grad=True)
    d = w.type(torch.DoubleTensor)
    assert d.grad_fn.name() == "ToCopyBackward0"
    (d * 2).sum().backward()
    assert w.grad.tolist() == [2.0, 2.0]
    i = w.type(torch.LongTensor)
    assert not i.requires_grad and i.tolist() == [1, -2]


@pytest.mark.parametrize("bad, error, words", [
    ("torch.foo", ValueError, "invalid type: 'torch.foo'"),
    ("DoubleTensor", ValueError, "invalid type: 'DoubleTensor'"),
    (float, ValueError, "invalid type: 'float'"),
    (5, TypeError, "dtype must be a type, str, or dtype object")])
def test_what_type_refuses(bad, error, words):
    with pytest.raises(error) as info:
        torch.ones(1).type(bad)
    assert str(info.value) == words


def test_module_type_converts_every_tensor_and_checks_parameters():
    m = torch.nn.Linear(2, 1)
    assert m.type(torch.DoubleTensor) is m and m.weight.dtype is torch.float64
    assert m.weight.requires_grad and isinstance(m.weight, torch.nn.Parameter)
    with pytest.raises(RuntimeError, match="must be floating point or complex"):
        torch.nn.Linear(2, 1).type(torch.LongTensor)
    assert np.array_equal(torch.tensor([1, 2]).type(torch.Tensor).numpy(), [1.0, 2.0])


def test_volatile_warns_and_does_nothing():
    with pytest.warns(UserWarning, match="volatile was removed"):
        v = torch.autograd.Variable(torch.ones(2), volatile=True)
    assert not v.requires_grad
