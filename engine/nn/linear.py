"""`nn.Linear` (y = x W^T + b) and `nn.Identity`.

PyTorch counterparts: `torch.nn.Linear`, `torch.nn.Identity`. Linear's weight has shape
(out_features, in_features) and is initialised as PyTorch does (kaiming-uniform with
a = sqrt(5), i.e. U(-1/sqrt(in), 1/sqrt(in)); the bias uses the same bound).
"""
from __future__ import annotations

import math

from ..factories import empty
from . import functional as F
from . import init
from .module import Module
from .parameter import Parameter


class Identity(Module):
    """Returns its input unchanged (a placeholder layer)."""

    def __init__(self, *args, **kwargs) -> None:
        super().__init__()

    def forward(self, input):
        return input


class Linear(Module):
    """y = x @ weight.T + bias over the last dimension of x.

    Example:
        >>> import gradstep.engine as torch
        >>> fc = torch.nn.Linear(3, 1)
        >>> fc
        Linear(in_features=3, out_features=1, bias=True)
        >>> fc.weight.shape, type(fc(torch.ones(2, 3)).grad_fn).__name__
        (torch.Size([1, 3]), 'AddmmBackward0')
    """

    def __init__(self, in_features: int, out_features: int, bias: bool = True, device=None,
                 dtype=None) -> None:
        super().__init__()
        self.in_features = in_features
        self.out_features = out_features
        self.weight = Parameter(empty(out_features, in_features, dtype=dtype))
        if bias:
            self.bias = Parameter(empty(out_features, dtype=dtype))
        else:
            self.register_parameter("bias", None)
        self.reset_parameters()

    def reset_parameters(self) -> None:
        init.kaiming_uniform_(self.weight, a=math.sqrt(5))
        if self.bias is not None:
            fan_in = self.in_features
            bound = 1 / math.sqrt(fan_in) if fan_in > 0 else 0
            init.uniform_(self.bias, -bound, bound)

    def forward(self, input):
        return F.linear(input, self.weight, self.bias)

    def extra_repr(self) -> str:
        return (f"in_features={self.in_features}, out_features={self.out_features}, "
                f"bias={self.bias is not None}")


__all__ = ["Linear", "Identity"]
