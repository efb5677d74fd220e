"""`torch.special`: the special functions' namespace (so far `torch.special.erfinv`, the inverse
of the error function, and `torch.special.erf`).

The ops themselves live in `engine/ops/`; this module only names them as PyTorch does, with
PyTorch's `special_` prefix in the error for a non-tensor input.

Example:
    >>> import gradstep.engine as torch
    >>> torch.special.erfinv(torch.tensor([0.0, 0.5]))
    tensor([0.0000, 0.4769])
"""
from __future__ import annotations

from .foreign_operands import tensor_input
from .ops import elementwise as _elementwise
from .ops import special as _special
from .tensor import Tensor

__all__ = ["erf", "erfinv"]

erf = tensor_input(_elementwise.erf, Tensor, "special_erf")
erfinv = tensor_input(_special.erfinv, Tensor, "special_erfinv")
