"""A PyTorch name gradstep lacks is called missing from gradstep, not wrong: through the sandbox
(module attributes, `from torch import`, an uncaught error on a tensor's method)."""
import pytest

from gradstep import engine
from gradstep.engine.upstream_names import NAMES

MISSING = "PyTorch has torch.{}, gradstep does not implement it"


@pytest.mark.parametrize("source,last_line", [
    ("import torch\ntorch.fft.fft(torch.ones(4))",
     "module 'torch' has no attribute 'fft': " + MISSING.format("fft")),
    ("import torch.nn.functional as F\nF.grid_sample",
     "module 'torch.nn.functional' has no attribute 'grid_sample': PyTorch has "
     "torch.nn.functional.grid_sample, gradstep does not implement it"),
    ("from torch import fft", "cannot import name 'fft' from 'torch': " + MISSING.format("fft")),
    ("import torch\ntorch.ones(8).stft(4)", "'Tensor' object has no attribute 'stft': "
     "PyTorch's Tensor has .stft, gradstep does not implement it"),
    # names PyTorch lacks too keep Python's own words
    ("import torch\ntorch.onez(2)", "module 'torch' has no attribute 'onez'"),
    # (with Python 3.11's suggestion, from PyTorch's dir(tensor): runner/suggestions.py)
    ("import torch\ntorch.ones(2).summ()",
     "'Tensor' object has no attribute 'summ'. Did you mean: 'smm'?"),
    ("import torch\ntorch.os", "module 'torch' has no attribute 'os'"),
])
def test_the_error_says_whether_pytorch_has_the_name(pool, source, last_line):
    result = pool.run(source + "\n", trace=False)
    assert result.error["kind"] == "exception", result.error
    assert result.stderr.rstrip("\n").splitlines()[-1].split(": ", 1)[1] == last_line


def test_hasattr_and_getattr_with_a_default_still_work(pool):
    result = pool.run("import torch\nx = torch.ones(2)\n"
                      "print(hasattr(torch, 'fft'), hasattr(x, 'stft'), getattr(x, 'stft', 7))\n",
                      trace=False)
    assert result.error is None, result.stderr
    assert result.stdout == "False False 7\n"


def test_explained_rewrites_only_a_tensor_attribute_pytorch_has():
    from gradstep.engine.unsupported import explained
    for name, expected in (("istft", "Tensor has .istft, gradstep does not implement it"),
                           ("not_a_method", None)):
        try:
            getattr(engine.ones(2), name)
        except AttributeError as e:
            said = explained(e)
        assert (said is None) if expected is None else said.endswith(expected)
    # a Tensor.__getattr__ would put every attribute read of every tensor on CPython's slow
    # path (about 5x a read); the runner rewrites the uncaught error instead
    assert "__getattr__" not in vars(engine.Tensor)


def test_the_recorded_names_are_pytorchs():
    # a sample each way: what gradstep serves is in the record, made-up names are not
    assert {"tensor", "ones", "no_grad", "fft", "func"} <= NAMES["torch"]
    assert {"backward", "grad", "register_hook", "stft"} <= NAMES["Tensor"]
    assert {"torch.fft", "torch.func", "torch.nn"} <= NAMES["submodules"]
    assert "os" not in NAMES["torch"] and "onez" not in NAMES["torch"]
