"""`torch.func`: function transforms (grad, vjp, jvp, jacrev, jacfwd, hessian, vmap) and
functional_call.

Each transform takes a function and returns one that computes a derivative (or a batched
result) of it. They are built on the engine's reverse mode (`reverse.py`); forward mode is
derived from it (`forward.py`), and vmap loops over the batch (`batching.py`). How they nest
is in `_levels.py`.

Example:
    >>> import gradstep.engine as torch
    >>> from gradstep.engine.func import grad
    >>> grad(grad(lambda x: x ** 3))(torch.tensor(2.))
    tensor(12.)
"""
from __future__ import annotations

from .batching import vmap
from .forward import hessian, jacfwd, jvp
from .reverse import grad, grad_and_value, jacrev, vjp
from .stateless import functional_call

__all__ = ["grad", "grad_and_value", "vjp", "jvp", "jacrev", "jacfwd", "hessian", "vmap",
           "functional_call"]
