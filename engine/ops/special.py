"""One-input elementwise functions beyond the basics: deg2rad / rad2deg, frac, sinc, logit and
nan_to_num.

PyTorch counterparts: `torch.deg2rad` (`Deg2RadBackward0`), `torch.rad2deg`
(`Rad2DegBackward0`), `torch.frac` (`FracBackward0`), `torch.sinc` (`SincBackward0`),
`torch.logit` (`LogitBackward0`, with its `eps`), `torch.nan_to_num` (`NanToNumBackward0`).
Float32 results follow PyTorch's scalar kernels: each float32 step rounded as C++ rounds it,
a transcendental rounded once from float64 (NOTE [float32 transcendentals] in `_exact.py`).
"""
from __future__ import annotations

import math

import numpy as np

from ..tensor import Tensor, new_tensor
from ._exact import F32, SMALL
from ._op import Op
from .elementwise import _unary, where


def _times(c: float):
    """x * c with c rounded to x's dtype first, as PyTorch's kernels multiply by a constant."""
    return lambda x: np.asarray(x * x.dtype.type(c))


def _sin64(x):
    return np.sin(x, dtype=np.float64).astype(F32) if x.dtype == F32 and x.size <= SMALL \
        else np.sin(x)


def _sinc(x):
    """sin(pi x) / (pi x), 1 at 0: PyTorch's kernel forms pi * x in x's dtype first."""
    p = np.asarray(x * x.dtype.type(math.pi))
    with np.errstate(all="ignore"):
        out = np.asarray(_sin64(p) / p)
    out[x == 0] = 1
    return out


def _sinc_backward(ctx, grad):
    # PyTorch's sinc_backward: (pi x cos(pi x) - sin(pi x)) / (pi x**2), 0 where x is 0
    x = ctx.self
    x_pi = x * math.pi
    x2_pi = x * x * math.pi
    out = grad * (x_pi * x_pi.cos() - x_pi.sin()) / x2_pi
    return (where(x2_pi == 0.0, new_tensor(np.zeros((), grad._data.dtype)), out),)


Deg2Rad = _unary("Deg2RadBackward0", "deg2rad", _times(math.pi / 180), "grad * pi / 180", (),
                 lambda ctx, g: (g * (math.pi / 180),))
Rad2Deg = _unary("Rad2DegBackward0", "rad2deg", _times(180 / math.pi), "grad * 180 / pi", (),
                 lambda ctx, g: (g * (180 / math.pi),))
# self - trunc(self): a slope of one between the jumps
Frac = _unary("FracBackward0", "frac", lambda x: np.asarray(x - np.trunc(x)), "grad", (),
              lambda ctx, g: (g,))
Sinc = _unary("SincBackward0", "sinc", _sinc,
              "grad * (pi x cos(pi x) - sin(pi x)) / (pi x**2)", ("self",), _sinc_backward)


class Logit(Op):
    """out = log(z / (1 - z)), z = self clamped to [eps, 1 - eps] when eps is given"""
    grad_fn_name, name = "LogitBackward0", "logit"
    saves = ("self", "eps")
    rule = "grad / (self * (1 - self)), 0 outside [eps, 1 - eps] (nan outside [0, 1])"
    float_only = True

    def forward(self, eps):
        z = self if eps is None else np.clip(self, self.dtype.type(eps),
                                             self.dtype.type(1 - eps))
        with np.errstate(all="ignore"):
            ratio = np.asarray(z / (1 - z))
            if ratio.dtype == F32 and ratio.size <= SMALL:
                return np.log(ratio, dtype=np.float64).astype(F32)
            return np.asarray(np.log(ratio))

    def backward(ctx, grad):
        x, eps = ctx.self, ctx.eps
        g = grad / (x * (1 - x))
        if eps is None:
            outside, fill = (x < 0) | (x > 1), np.nan
        else:
            outside, fill = ~((x >= eps) & (x <= 1 - eps)), 0
        return (where(outside, new_tensor(np.full((), fill, grad._data.dtype)), g),)

    @classmethod
    def sample_inputs(cls, make, shape):
        yield make(shape, 0.1, 0.9), None
        yield make(shape, 0.3, 0.7), 0.05


class NanToNum(Op):
    """out = self with nan, +inf and -inf replaced by finite numbers"""
    grad_fn_name, name = "NanToNumBackward0", "nan_to_num"
    saves = ("self",)
    rule = "grad where self is finite, else 0"

    def forward(self, nan, posinf, neginf):
        if self.dtype.kind not in "fc":
            return self.copy()
        return np.asarray(np.nan_to_num(self, nan=nan, posinf=posinf, neginf=neginf))

    def backward(ctx, grad):
        return (grad * ctx.self.isfinite(),)

    @classmethod
    def sample_inputs(cls, make, shape):
        yield make(shape), 0.0, None, None


# ---- public entry points ------------------------------------------------------------------
def deg2rad(input) -> Tensor:
    """Degrees to radians, elementwise (`torch.deg2rad`); integers give the default float.

    Example:
        >>> import gradstep.engine as torch
        >>> torch.deg2rad(torch.tensor([180.0])).tolist()
        [3.1415927410125732]
    """
    return Deg2Rad.apply(input)


def rad2deg(input) -> Tensor:
    """Radians to degrees, elementwise (`torch.rad2deg`); integers give the default float.

    Example:
        >>> import gradstep.engine as torch
        >>> torch.rad2deg(torch.tensor([0.5])).tolist()
        [28.647890090942383]
    """
    return Rad2Deg.apply(input)


def frac(input) -> Tensor:
    """The fractional part, input - trunc(input), keeping the sign (`torch.frac`).

    Example:
        >>> import gradstep.engine as torch
        >>> torch.frac(torch.tensor([1.5, -2.25])).tolist()
        [0.5, -0.25]
    """
    if input._data.dtype.kind not in "fc":
        word = input.dtype.legacy.replace("Tensor", "")
        raise NotImplementedError(f"\"frac_cpu\" not implemented for '{word}'")
    return Frac.apply(input)


def sinc(input) -> Tensor:
    """The normalized sinc, sin(pi x) / (pi x), and 1 at 0 (`torch.sinc`).

    Example:
        >>> import gradstep.engine as torch
        >>> torch.sinc(torch.tensor([0.0, 0.5])).tolist()
        [1.0, 0.6366197466850281]
    """
    return Sinc.apply(input)


def logit(input, eps=None) -> Tensor:
    """log(p / (1 - p)), the inverse of sigmoid (`torch.logit`); with `eps`, p is clamped to
    [eps, 1 - eps] first (and the gradient is 0 outside).

    Example:
        >>> import gradstep.engine as torch
        >>> torch.logit(torch.tensor([0.5, 0.0]), eps=0.25).tolist()
        [0.0, -1.0986123085021973]
    """
    return Logit.apply(input, eps)


def nan_to_num(input, nan=0.0, posinf=None, neginf=None) -> Tensor:
    """input with nan replaced by `nan`, +inf by `posinf` and -inf by `neginf` (by default the
    dtype's largest and lowest finite values) (`torch.nan_to_num`).

    Example:
        >>> import gradstep.engine as torch
        >>> torch.nan_to_num(torch.tensor([float("nan"), 1.0, float("-inf")]), neginf=-9.0)
        tensor([ 0.,  1., -9.])
    """
    return NanToNum.apply(input, nan, posinf, neginf)
