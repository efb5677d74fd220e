"""nn.ParameterDict: key order, registration, conversion to Parameters and PyTorch's errors."""
from collections import OrderedDict

import pytest

import gradstep.engine as torch
from gradstep.engine import nn


def test_plain_dict_is_sorted_ordered_dict_is_not():
    assert list(nn.ParameterDict({"w": torch.ones(1), "b": torch.ones(1)})) == ["b", "w"]
    kept = OrderedDict([("w", torch.ones(1)), ("b", torch.ones(1))])
    assert list(nn.ParameterDict(kept)) == ["w", "b"]


def test_tensors_become_registered_parameters():
    class Net(nn.Module):
        def __init__(self):
            super().__init__()
            self.params = nn.ParameterDict({"a": torch.zeros(2)})

    net = Net()
    net.params["c"] = torch.ones(3)
    assert [n for n, _ in net.named_parameters()] == ["params.a", "params.c"]
    assert isinstance(net.params["c"], nn.Parameter) and net.params["c"].requires_grad
    del net.params["a"]
    assert list(net.state_dict()) == ["params.c"]


def test_repr_lists_type_and_size():
    pd = nn.ParameterDict({"s": torch.tensor(2.0, dtype=torch.float64)})
    pd["name"] = "x"
    assert repr(pd) == ("ParameterDict(\n"
                        "    (s): Parameter containing: [torch.DoubleTensor of size ]\n"
                        "    (name): Object of type: str\n)")


def test_errors_in_pytorch_words():
    pd = nn.ParameterDict()
    with pytest.raises(AttributeError, match="'ParameterDict' object has no attribute 'x'"):
        pd["x"]
    with pytest.raises(TypeError, match="is not a string \\(type is 'int'\\)"):
        pd[3] = torch.ones(1)
    with pytest.raises(ValueError, match="element #0 has length 3; 2 is required"):
        pd.update([("a", 1, 2)])
    with pytest.raises(RuntimeError, match="ParameterDict should not be called."):
        pd(1)
