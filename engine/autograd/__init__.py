"""`torch.autograd`: backward passes, gradients, custom Functions and the legacy Variable.

`backward`/`grad` live in `walk.py` (the iterative graph walk), `Function` in `function.py`;
`functional` (jacobian, hessian, vjp, jvp) is imported on first use.
"""
from __future__ import annotations

import importlib

from ..grad_mode import enable_grad, inference_mode, no_grad, set_grad_enabled
from .function import Function, once_differentiable
from .variable import Variable
from .walk import backward, grad

__all__ = ["backward", "grad", "Function", "Variable", "functional", "no_grad", "enable_grad",
           "set_grad_enabled", "inference_mode", "once_differentiable", "set_detect_anomaly",
           "detect_anomaly", "graph"]


class set_detect_anomaly:  # noqa: N801 - PyTorch's name
    """Accepted for compatibility; anomaly detection is not implemented (a no-op)."""

    def __init__(self, mode: bool = True, check_nan: bool = True) -> None:
        self.mode = mode

    def __enter__(self):
        return self

    def __exit__(self, *exc) -> bool:
        return False


detect_anomaly = set_detect_anomaly


def __getattr__(name: str):
    # functional and graph are written on top of the core; load them when first asked for
    if name in ("functional", "graph"):
        return importlib.import_module(f".{name}" if name == "functional" else "..graph",
                                       __name__)
    raise AttributeError(f"module 'engine.autograd' has no attribute {name!r}")
