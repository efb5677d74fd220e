"""`torch.autograd`: backward passes, gradients, custom Functions and the legacy Variable.

`backward`/`grad` live in `walk.py` (the iterative graph walk), `Function` in `function.py`;
`functional` (jacobian, hessian, vjp, jvp) and `forward_ad` (dual tensors) are imported on
first use.
"""
from __future__ import annotations

from ..grad_mode import enable_grad, inference_mode, no_grad, set_grad_enabled
from .anomaly import detect_anomaly, set_detect_anomaly
from .function import Function, once_differentiable
from .gradcheck import gradcheck, gradgradcheck
from .variable import Variable
from .walk import backward, grad

__all__ = ["backward", "grad", "Function", "Variable", "functional", "no_grad", "enable_grad",
           "set_grad_enabled", "inference_mode", "once_differentiable", "set_detect_anomaly",
           "detect_anomaly", "graph", "gradcheck", "gradgradcheck", "forward_ad"]


def __getattr__(name: str):
    # functional, graph and forward_ad are written on top of the core; load them when first
    # asked for
    # (importlib imported here: no engine module holds a module that can import anything)
    if name in ("functional", "graph", "forward_ad"):
        import importlib
        return importlib.import_module(f".{name}", __name__)
    raise AttributeError(f"module 'engine.autograd' has no attribute {name!r}")
