"""`python -m gradstep.engine FILE`: run FILE with `torch` aliased to the engine (no sandbox).

A development and benchmark harness: `torch`, `torch.nn`, `torch.nn.functional`, `torch.optim`,
`torch.autograd`, `torch.autograd.functional`, `torch.autograd.graph`,
`torch.autograd.forward_ad`, `torch.func` and `torch.distributions` all
resolve to the engine's modules. For untrusted code use the runner (`gradstep run FILE`),
which adds the sandbox.
"""
from __future__ import annotations

import importlib
import runpy
import sys

ALIASES = ("", ".nn", ".nn.functional", ".nn.init", ".nn.utils", ".optim", ".optim.lr_scheduler",
           ".autograd", ".autograd.functional", ".autograd.function", ".autograd.graph",
           ".autograd.forward_ad", ".linalg", ".utils", ".utils.data", ".utils.checkpoint",
           ".func", ".distributions", ".distributions.constraints", ".distributions.normal",
           ".distributions.uniform", ".distributions.categorical", ".distributions.bernoulli",
           ".distributions.kl", ".distributions.utils", ".distributions.distribution",
           ".distributions.independent", ".distributions.exponential", ".distributions.laplace")


def alias_torch() -> None:
    """Make `import torch...` load the engine's modules (those that exist)."""
    from gradstep import engine
    sys.modules["torch"] = engine
    for suffix in ALIASES[1:]:
        try:
            sys.modules["torch" + suffix] = importlib.import_module(engine.__name__ + suffix)
        except ImportError:
            pass
    # nn.utils is one file; its rnn helpers are a module beside it
    sys.modules["torch.nn.utils.rnn"] = importlib.import_module(engine.__name__ +
                                                                ".nn.rnn_utils")


def main(argv: list) -> int:
    if len(argv) != 1:
        print("usage: python -m gradstep.engine FILE", file=sys.stderr)
        return 2
    alias_torch()
    sys.argv = argv[:]
    runpy.run_path(argv[0], run_name="__main__")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
