"""`python -m gradstep.engine FILE`: run FILE with `torch` aliased to the engine (no sandbox).

A development and benchmark harness: `torch` and every torch module the engine serves
(`engine/_served.py`) resolve to the engine's modules. For untrusted code use the runner
(`gradstep run FILE`), which adds the sandbox.
"""
from __future__ import annotations

import importlib
import runpy
import sys

from ._served import SERVED, engine_module


def alias_torch() -> None:
    """Make `import torch...` load the engine's modules (those that exist)."""
    for dotted in SERVED:
        try:
            sys.modules[dotted] = importlib.import_module(engine_module(dotted))
        except ImportError:
            pass


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
