"""One-input elementwise functions beyond the basics: deg2rad / rad2deg, frac, sinc, logit,
nan_to_num and erfinv.

PyTorch counterparts: `torch.deg2rad` (`Deg2RadBackward0`), `torch.rad2deg`
(`Rad2DegBackward0`), `torch.frac` (`FracBackward0`), `torch.sinc` (`SincBackward0`),
`torch.logit` (`LogitBackward0`, with its `eps`), `torch.nan_to_num` (`NanToNumBackward0`),
`torch.erfinv` and `torch.special.erfinv` (`ErfinvBackward0`).
Float32 results follow PyTorch's scalar kernels: each float32 step rounded as C++ rounds it,
a transcendental rounded once from float64 (NOTE [float32 transcendentals] in `_exact.py`).
"""
from __future__ import annotations

import math

import numpy as np

from .. import _libm
from ..tensor import Tensor, new_tensor
from ._exact import F32, SMALL
from ._op import Op
from .arithmetic import MulScalar
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


# NOTE [erfinv's bits]
# PyTorch's CPU erfinv ("erfinv_vml_cpu") hands whole float32 and float64 arrays to MKL's
# vector math library, whose ErfInv is closed source and not the rational approximation with
# two Newton steps in ATen's Math.h (that one serves only other builds): its float64 results
# are correctly rounded but for about 0.4% of values (one ulp off), its float32 results are
# the correctly rounded value but for about 0.5%, each within a hair of a rounding boundary.
# So the best reproduction is an erfinv as close to exact as float64 allows: the published
# rational first guess (Pavlis, as Math.h has it), then two Halley steps whose residual is
# formed without cancellation, rounded once to float32 for float32 input.
# A sweep of 1.6 million values per dtype (uniform in (-1, 1), within 1e-8 of +-1, down to
# the subnormals, the edges +-1, 0, beyond +-1, inf, nan) against PyTorch 2.13 gave:
# - float32: 99.5% bit for bit, at most 1 ulp off;
# - float64: 94.1% bit for bit, at most 1 ulp off. For |y| <= 0.5 the residual is formed
#   beyond double precision (`_erf_residual`) and 98% agree; in the tails it rests on the C
#   library's erfc, good to an ulp, so near a rounding boundary the last bit is a coin toss
#   (87% agree).
# Golden cases that print values to the last digits compare `numeric`.
_PAVLIS_CENTRAL = ((0.886226899, -1.645349621, 0.914624893, -0.140543331),
                   (1.0, -2.118377725, 1.442710462, -0.329097515, 0.012229801))
_PAVLIS_TAIL = ((-1.970840454, -1.624906493, 3.429567803, 1.641345311),
                (1.0, 3.543889200, 1.637067800))
_TWO_OVER_SQRT_PI = 2 / math.sqrt(math.pi)
# 2 / sqrt(pi) to twice double precision: the first rounded, the second what it left out
_TWO_OVER_SQRT_PI_HI, _TWO_OVER_SQRT_PI_LO = 1.1283791670955126, 1.533545961316588e-17
# erf(t) = 2 / sqrt(pi) * t * (1 + sum_{n>=1} (-1)**n z**n / (n! (2n + 1))), z = t**2; for
# t <= 0.48 sixteen terms leave less than 1e-30
_ERF_SERIES = tuple((-1) ** n / (math.factorial(n) * (2 * n + 1)) for n in range(1, 17))
_SPLIT = 2.0 ** 27 + 1
_NEGATIVE_NAN = -math.nan


def _poly(coefficients, z):
    """sum(c_k z**k), lowest degree first, by Horner's rule."""
    acc = np.full_like(z, coefficients[-1])
    for c in coefficients[-2::-1]:
        acc = acc * z + c
    return acc


def _erfinv_guess(v: np.ndarray) -> np.ndarray:
    """A first guess at erfinv(v), 0 <= v < 1, good to about six digits: a rational function
    of v**2 in the middle, of sqrt(-log((1 - v) / 2)) in the tail."""
    out = np.empty_like(v)
    mid = v <= 0.7
    z = v[mid] * v[mid]
    out[mid] = v[mid] * _poly(_PAVLIS_CENTRAL[0], z) / _poly(_PAVLIS_CENTRAL[1], z)
    z = np.sqrt(-np.log((1 - v[~mid]) / 2))
    out[~mid] = _poly(_PAVLIS_TAIL[0], z) / _poly(_PAVLIS_TAIL[1], z)
    return out


def _two_product(a: np.ndarray, b: np.ndarray) -> tuple:
    """a * b as p + e exactly, p the rounded product (Dekker's splitting into 26-bit halves:
    numpy has no fused multiply-add)."""
    p = a * b
    c = _SPLIT * a
    ah = c - (c - a)
    c = _SPLIT * b
    bh = c - (c - b)
    al, bl = a - ah, b - bh
    return p, ((ah * bh - p) + ah * bl + al * bh) + al * bl


def _erf_residual(t: np.ndarray, v: np.ndarray) -> np.ndarray:
    """erf(t) - v for 0 <= t <= 0.48, to a few bits beyond double precision. A rounded
    erf(t) is off by up to an ulp of v, which moves the answer by as much; here the leading
    term 2 / sqrt(pi) * t is exact as p + e, p - v is exact (the two are within a factor of
    two), and the rest of the series is small, so its rounding hardly shows."""
    p, e = _two_product(np.full_like(t, _TWO_OVER_SQRT_PI_HI), t)
    z = t * t
    rest = _poly((0.0,) + _ERF_SERIES, z)
    return (p - v) + (e + _TWO_OVER_SQRT_PI_LO * t + p * rest)


def _erfinv(x: np.ndarray) -> np.ndarray:
    """erfinv elementwise in x's dtype, nan beyond +-1 and +-inf at +-1 (NOTE [erfinv's bits]).
    erf, erfc and exp come from the C library (`_libm`), so the bits do not depend on the
    CPU's vector kernels."""
    y = np.asarray(x, dtype=np.float64)
    v = np.abs(y)
    # beyond +-1 PyTorch's kernel gives a nan with the sign bit set in float32 and clear in
    # float64 (torch.signbit shows it); a nan input passes through as it is
    out = np.where(np.isnan(y), y, _NEGATIVE_NAN if x.dtype == F32 else math.nan)
    out[v == 1] = np.copysign(np.inf, y[v == 1])
    inside = v < 1
    v = v[inside]
    t = _erfinv_guess(v)
    mid = v <= 0.5
    for _ in range(2):
        # erf(t) - v; in the tails both are near 1, so it is taken as (1 - v) - erfc(t),
        # both terms exact or small, where the plain difference would cancel
        r = np.empty_like(t)
        r[mid] = _erf_residual(t[mid], v[mid])
        r[~mid] = (1 - v[~mid]) - _libm.apply(math.erfc, t[~mid])
        step = r / (_TWO_OVER_SQRT_PI * _libm.apply(math.exp, -t * t))
        t = t - step / (1 + t * step)      # Halley: erf'' / erf' = -2t
    out[inside] = np.copysign(t, y[inside])
    # an integer tensor reaches here only in place (erfinv_), where a float result is refused
    return out.astype(x.dtype if x.dtype.kind == "f" else np.float32, copy=False)


def _erfinv_backward(ctx, grad):
    # PyTorch's formula, in its order: 0.5 * sqrt(pi) * exp(self.erfinv().pow(2)) * grad
    return (MulScalar.apply(ctx.self.erfinv().pow(2).exp(), 0.5 * math.sqrt(math.pi)) * grad,)


Erfinv = _unary("ErfinvBackward0", "erfinv", _erfinv,
                "grad * sqrt(pi) / 2 * exp(erfinv(self)**2)", ("self",), _erfinv_backward,
                -0.9, 0.9)


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


def erfinv(input) -> Tensor:
    """The inverse of erf on (-1, 1): erfinv(erf(x)) == x; +-inf at +-1, nan beyond
    (`torch.erfinv`, `torch.special.erfinv`); integers give the default float.

    Example:
        >>> import gradstep.engine as torch
        >>> torch.erfinv(torch.tensor([0.0, 0.5, -1.0])).tolist()
        [0.0, 0.4769362807273865, -inf]
    """
    refuse_complex_erfinv(input)
    return Erfinv.apply(input)


def refuse_complex_erfinv(input) -> None:
    """PyTorch's error for erfinv or erfinv_ of a complex tensor: its kernel is real only."""
    if input._data.dtype.kind == "c":
        raise NotImplementedError(
            f"\"erfinv_vml_cpu\" not implemented for '{input.dtype.legacy[:-6]}'")
