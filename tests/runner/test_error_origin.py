"""Every error says who raised it, so the page can head it as PyTorch's, Python's or
gradstep's own: `origin` in the run's error and in the trace's error event."""
import pytest

CASES = {
    "SyntaxError": ("import torch\nx = (1,\n", "python"),
    "NameError": ("import torch\nx = torch.ones(2)\nprint(y)\n", "python"),
    "TypeError": ("import torch\ndef f(a):\n    return a\nf(1, 2)\n", "python"),
    "RuntimeError": ("import torch\nx = torch.ones(2)\ny = torch.ones(3)\nz = x + y\n",
                     "pytorch"),
    "LimitExceeded": ("import torch\nx = torch.ones(2)\nbig = torch.zeros(10000, 10000)\n",
                      "gradstep"),
    "SecurityError": ("import os\n", "gradstep"),
}


@pytest.mark.parametrize("type_name", sorted(CASES))
def test_error_origin(pool, type_name):
    source, origin = CASES[type_name]
    result = pool.run(source, trace=True)
    assert result.error["type"] == type_name
    assert result.error["origin"] == origin
    errors = [e for e in result.trace["events"] if e["kind"] == "error"]
    assert [e["origin"] for e in errors] == [origin]


def test_a_backward_error_is_pytorchs_and_a_hook_that_raises_is_the_programs(pool):
    inplace = ("import torch\na = torch.tensor([1.0], requires_grad=True)\nb = a.sigmoid()\n"
               "b.mul_(2)\nb.sum().backward()\n")
    hook = ("import torch\nx = torch.tensor([1.0], requires_grad=True)\ny = x * 2\n"
            "def stop(g):\n    raise ValueError('no')\ny.register_hook(stop)\n"
            "try:\n    y.sum().backward()\nexcept ValueError:\n    print('caught')\n")
    assert pool.run(inplace, trace=True).error["origin"] == "pytorch"
    (caught,) = [e for e in pool.run(hook, trace=True).trace["events"] if e["kind"] == "error"]
    assert caught["caught"] is True and caught["origin"] == "python"


def test_after_a_limit_the_tensors_keep_their_names(pool):
    source = CASES["LimitExceeded"][0]
    events = pool.run(source, trace=True).trace["events"]
    assert [e["tensor"]["name"] for e in events if e["kind"] == "tensor"] == ["x"]
