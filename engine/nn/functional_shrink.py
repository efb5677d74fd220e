"""`F.hardshrink`, `F.softshrink` and `F.rrelu`: activations with a dead zone or a random slope.

PyTorch counterparts of the same names (`HardshrinkBackward0`, `SoftshrinkBackward0`,
`RreluWithNoiseBackward0`; in place `RreluWithNoiseBackward1`). rrelu draws its training-mode
slopes from the global generator, one per element <= 0, as PyTorch's CPU kernel does, so a
seeded program prints PyTorch's numbers.
"""
from __future__ import annotations

from ..ops import rrelu as _rrelu
from ..ops import shrinkage as _shrink
from ..tensor import Tensor
from .functional import _floats_only, _inplace


def hardshrink(input: Tensor, lambd: float = 0.5) -> Tensor:
    """x where |x| > lambd, else 0 (`HardshrinkBackward0`).

    Example:
        >>> import gradstep.engine as torch
        >>> hardshrink(torch.tensor([-1.0, 0.2, 0.7])).tolist()
        [-1.0, 0.0, 0.699999988079071]
    """
    _floats_only(input, "hardshrink_cpu")
    return _shrink.Hardshrink.apply(input, lambd)


def softshrink(input: Tensor, lambd: float = 0.5) -> Tensor:
    """x - lambd above lambd, x + lambd below -lambd, else 0 (`SoftshrinkBackward0`).

    Example:
        >>> import gradstep.engine as torch
        >>> softshrink(torch.tensor([-1.0, 0.25, 2.0])).tolist()
        [-0.5, 0.0, 1.5]
    """
    _floats_only(input, "softshrink_check")
    if lambd < 0:
        double = input.dtype.itemsize == 8
        word, top = ("Double", "1.79769e+308") if double else ("Float", "3.40282e+38")
        raise RuntimeError(f"lambda must be in range [0, {top}] for input dtype {word}, but "
                           f"found {lambd:g}")
    return _shrink.Softshrink.apply(input, lambd)


def rrelu(input: Tensor, lower: float = 1.0 / 8, upper: float = 1.0 / 3,
          training: bool = False, inplace: bool = False) -> Tensor:
    """Leaky ReLU with a slope drawn from U(lower, upper) per element in training, the mean
    slope (lower + upper) / 2 otherwise (`RreluWithNoiseBackward0`).

    Example:
        >>> import gradstep.engine as torch
        >>> rrelu(torch.tensor([-1.0, 2.0]), 0.1, 0.3).tolist()
        [-0.20000000298023224, 2.0]
    """
    if lower > upper:
        raise RuntimeError("Lower bound should be less than or equal to the upper bound")
    _floats_only(input, "rrelu_with_noise_out_cpu" if training else "leaky_relu_cpu")
    if training:
        from ..factories import default_generator
        noise = _rrelu.draw_noise(input, lower, upper, default_generator)
    else:       # PyTorch leaves eval mode's noise unwritten; ones stand in for it
        from ..factories import ones_like
        noise = ones_like(input)
    if inplace:
        return _inplace(_rrelu.RreluWithNoiseInplace, "rrelu_", input, noise, lower, upper,
                        training)
    return _rrelu.RreluWithNoise.apply(input, noise, lower, upper, training)


def rrelu_(input: Tensor, lower: float = 1.0 / 8, upper: float = 1.0 / 3,
           training: bool = False) -> Tensor:
    """`rrelu` in place (`RreluWithNoiseBackward1`)."""
    return rrelu(input, lower, upper, training, True)


__all__ = ["hardshrink", "softshrink", "rrelu", "rrelu_"]
