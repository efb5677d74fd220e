"""The docstring examples of nn, optim, nn_ops and autograd.functional run and print what
they claim."""
import doctest
import importlib

import pytest

MODULES = ["gradstep.engine" + name for name in [".nn.module", ".nn.parameter", ".nn.container",
                                                 ".nn.linear", ".nn.activation", ".nn.loss",
                                                 ".nn.functional", ".nn.init",
                                                 ".optim.optimizer", ".optim.sgd", ".optim.adam",
                                                 ".optim.rmsprop", ".optim.lr_scheduler",
                                                 ".optim.scheduler_base", ".optim.sequential_lr",
                                                 ".ops.nn_ops", ".autograd.functional",
                                                 ".nn.rnn", ".nn.attention", ".nn.transformer",
                                                 ".nn.functional_attention", ".nn.rnn_utils",
                                                 ".utils.checkpoint"]]


@pytest.mark.parametrize("name", MODULES)
def test_docstring_examples(name):
    result = doctest.testmod(importlib.import_module(name), verbose=False)
    assert result.attempted > 0, f"{name} has no examples"
    assert result.failed == 0
