"""`nn.Hardshrink`, `nn.Softshrink` and `nn.RReLU`: the module forms of `functional_shrink`.

PyTorch counterparts of the same names. RReLU draws random slopes in training mode (a new
module is in training mode) and uses their mean after `.eval()`.
"""
from __future__ import annotations

from . import functional as F
from .module import Module


class Hardshrink(Module):
    """x where |x| > lambd, else 0.

    Example:
        >>> import gradstep.engine as torch
        >>> torch.nn.Hardshrink(1)
        Hardshrink(1)
    """

    def __init__(self, lambd: float = 0.5) -> None:
        super().__init__()
        self.lambd = lambd

    def forward(self, input):
        return F.hardshrink(input, self.lambd)

    def extra_repr(self) -> str:
        return f"{self.lambd}"


class Softshrink(Hardshrink):
    """x moved lambd towards 0, and 0 within lambd of it."""

    def forward(self, input):
        return F.softshrink(input, self.lambd)


class RReLU(Module):
    """Leaky ReLU with a random slope in [lower, upper] while training, their mean in eval.

    Example:
        >>> import gradstep.engine as torch
        >>> torch.nn.RReLU(0.1, 0.3)
        RReLU(lower=0.1, upper=0.3)
    """

    def __init__(self, lower: float = 1.0 / 8, upper: float = 1.0 / 3,
                 inplace: bool = False) -> None:
        super().__init__()
        self.lower, self.upper, self.inplace = lower, upper, inplace

    def forward(self, input):
        return F.rrelu(input, self.lower, self.upper, self.training, self.inplace)

    def extra_repr(self) -> str:
        return (f"lower={self.lower}, upper={self.upper}"
                + (", inplace=True" if self.inplace else ""))


__all__ = ["Hardshrink", "Softshrink", "RReLU"]
