"""The docstring examples of nn, optim, nn_ops and autograd.functional run and print what
they claim."""
import doctest
import importlib

import pytest

MODULES = ["engine.nn.module", "engine.nn.parameter", "engine.nn.container", "engine.nn.linear",
           "engine.nn.activation", "engine.nn.loss", "engine.nn.functional", "engine.nn.init",
           "engine.optim.optimizer", "engine.optim.sgd", "engine.optim.adam",
           "engine.optim.rmsprop", "engine.optim.lr_scheduler", "engine.ops.nn_ops",
           "engine.autograd.functional"]


@pytest.mark.parametrize("name", MODULES)
def test_docstring_examples(name):
    result = doctest.testmod(importlib.import_module(name), verbose=False)
    assert result.attempted > 0, f"{name} has no examples"
    assert result.failed == 0
