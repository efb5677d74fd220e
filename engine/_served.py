"""The torch modules the engine serves, and the engine module behind each.

A program may import exactly these (runner/policy.py), the sandbox hands each out as a module
proxy (runner/proxies.py), and `python -m gradstep.engine` and the in-process trace recorder
alias them in `sys.modules`. They read this one list so that they agree: a module one of them
leaves out either cannot be imported or, imported under torch's name, loads a second copy of
the engine's modules.
"""
from __future__ import annotations

from ._names import PACKAGE

SERVED = ("torch", "torch.nn", "torch.nn.functional", "torch.nn.init", "torch.nn.utils",
          "torch.nn.utils.rnn", "torch.optim", "torch.optim.lr_scheduler", "torch.autograd",
          "torch.autograd.functional", "torch.autograd.function", "torch.autograd.graph",
          "torch.autograd.forward_ad", "torch.linalg", "torch.utils", "torch.utils.data",
          "torch.utils.checkpoint", "torch.func", "torch.distributions",
          "torch.distributions.constraints", "torch.distributions.normal",
          "torch.distributions.uniform", "torch.distributions.categorical",
          "torch.distributions.bernoulli", "torch.distributions.kl", "torch.distributions.utils",
          "torch.distributions.independent", "torch.distributions.exponential",
          "torch.distributions.laplace", "torch.distributions.distribution", "torch.special")

# where the engine's module is named otherwise (nn.utils is one file; its rnn helpers beside it)
_RENAMED = {"torch.nn.utils.rnn": ".nn.rnn_utils"}


def engine_module(dotted: str) -> str:
    """The import name of the engine module serving torch module `dotted`.

        >>> engine_module("torch.nn.functional") == PACKAGE + ".nn.functional"
        True
    """
    return PACKAGE + _RENAMED.get(dotted, dotted[len("torch"):])
