"""The engine core's docstring examples run and print what they claim."""
import doctest
import importlib

import pytest

MODULES = ["engine", "engine._events", "engine.tensor", "engine.graph", "engine.grad_mode",
           "engine.generator",
           "engine.dtypes", "engine.factories", "engine.ops._broadcast", "engine.ops.linalg",
           "engine.autograd.walk", "engine.autograd.function", "engine.autograd.variable"]


@pytest.mark.parametrize("name", MODULES)
def test_docstring_examples(name):
    result = doctest.testmod(importlib.import_module(name), verbose=False)
    assert result.attempted > 0, f"{name} has no examples"
    assert result.failed == 0
