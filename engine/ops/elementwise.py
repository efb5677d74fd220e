"""Elementwise math: exp/log, roots, trigonometry, activations, rounding, where.

PyTorch counterparts: `torch.exp`, `torch.sin`, `torch.sigmoid`, `torch.relu`, `torch.where`
(clamp, maximum and minimum are in `clamping.py`). Each class holds one op's forward (numpy)
and backward (engine Tensor ops); most are one `_unary(...)` line. Arithmetic lives in
`arithmetic.py`.
"""
from __future__ import annotations

import math

import numpy as np

from ..tensor import Tensor, new_tensor
from . import _complex_order as _cx, _samples
from ._broadcast import records_nothing, sum_to
from ._exact import F32, sleef_expf, via64
from ._sum_order import MAX_SERIAL
from ._op import Op
from .arithmetic import MulScalar, _pair
from .complex import conj
from .grad_ops import SigmoidBackward, TanhBackward, ThresholdBackward

_plain = new_tensor


def _num(v):
    return v.item() if isinstance(v, Tensor) else v


def _plain_backward(grad: Tensor, like: Tensor) -> bool:
    """Whether a backward may compute in numpy into its own temporaries: nothing is recorded
    or reported (no create_graph, no listener), and the arrays are same-shaped, of one dtype
    and not 0-d, so the in-place numpy ops round exactly as the Tensor ops they stand for.
    (Large arrays save a temporary; a learner's 3-element ones save two op dispatches.)"""
    g, x = grad._data, like._data
    return x.ndim and records_nothing() and g.shape == x.shape and g.dtype == x.dtype


def _zeros(g: Tensor) -> Tensor:
    """PyTorch's zeros_like(grad): a plain tensor of +0.0 (g * 0 would give -0.0 for g < 0)."""
    return _plain(np.zeros_like(g._data))


def _zero(g: Tensor) -> Tensor:
    """A 0-d +0.0 of grad's dtype: what PyTorch's where(mask, grad, 0) backwards fill in."""
    return _plain(np.zeros((), g._data.dtype))


def _sin_backward(ctx, g):
    x = ctx.self
    if _plain_backward(g, x):     # g * cos(self) into cos's fresh array
        c = Cos.forward(x._data)
        return (new_tensor(np.multiply(g._data, c, out=c)),)
    return (g * x.cos(),)


def _sgn_backward(ctx, g):
    """Flat on the reals; on complex numbers z / |z| turns with z, so only the part of the
    gradient across the direction of z passes, divided by |z| (0 at z = 0)."""
    x, s = ctx.self, ctx.result
    if x._data.dtype.kind != "c":
        return _zeros(g)
    m = x.abs()
    across = (g - s * (g * conj(s)).real) / m
    return where(m == 0, _zero(across), across)


def _tanh_backward(ctx, g):
    return (TanhBackward.apply(g, ctx.result),)      # its own node, as PyTorch's tanh_backward


def _sigmoid_scalar(x):
    # PyTorch's scalar loop: 1 / (1 + exp(-x)) with exp rounded to the input type before the
    # division (the C library's expf rounds as float64 rounded once does, NOTE in _exact.py)
    e = via64(np.exp)(-x)
    return (1 / (1 + e)).astype(x.dtype)


def _sigmoid(x):
    """PyTorch's sigmoid kernel: its vectorised loop takes float32 elements 32 at a time (two
    16-lane vectors) in memory order and computes 1 / (1 + Sleef's expf(-x)) in float32; the
    elements after the last whole 32 go through the scalar loop. (Matched 100% of 40,000
    random values of whole blocks; above MAX_SERIAL PyTorch splits the work over threads, so
    the split depends on the machine and the scalar formula serves all.)"""
    if x.dtype == F32 and 32 <= x.size <= MAX_SERIAL:
        a = x if x.flags.c_contiguous else x.T if x.flags.f_contiguous else None
        if a is not None:
            flat = a.reshape(-1)
            k = flat.size // 32 * 32
            out = np.empty_like(flat)
            one = np.float32(1)
            out[:k] = one / (one + sleef_expf(-flat[:k]))
            out[k:] = _sigmoid_scalar(flat[k:])
            out = out.reshape(a.shape)
            return out if a is x else out.T
    return _sigmoid_scalar(x)


def _conjugated(bwd):
    """`bwd` (grad times the derivative) for complex numbers too: conj(bwd(conj(grad))) is
    grad times the derivative's conjugate, PyTorch's gradient of a holomorphic function
    (NOTE [complex gradients] in complex.py). Real gradients take `bwd` as it is."""
    def backward(ctx, g):
        if g._data.dtype.kind != "c":
            return bwd(ctx, g)
        return tuple([conj(b) for b in bwd(ctx, conj(g))])
    return backward


def _unary(grad_fn, fname, fwd, rule, saves, bwd, low=-2.0, high=2.0, float_only=True):
    """Declare a one-input op: `fwd` on arrays, `bwd(ctx, grad)` in Tensor ops. The
    float-only ones (exp, sin, log ...) are holomorphic, so their complex gradients come from
    the same `bwd` (`_conjugated`)."""
    if float_only:
        bwd = _conjugated(bwd)
    ns = {"grad_fn_name": grad_fn, "name": fname, "rule": rule, "saves": saves,
          "forward_params": ("self",),
          "float_only": float_only, "forward": staticmethod(fwd), "backward": staticmethod(bwd),
          "jvp": "elementwise",
          "sample_inputs": classmethod(lambda cls, make, shape: _samples.unary(
              make, shape, low, high)), "__doc__": f"out = {rule.split(' -> ')[0]}"}
    return type(grad_fn[:-len("Backward0")], (Op,), ns)


# One line each: PyTorch name, public name, forward, local derivative in words, saves, backward.
Exp = _unary("ExpBackward0", "exp", via64(np.exp), "grad * result", ("result",),
             lambda ctx, g: (g * ctx.result,))
Log = _unary("LogBackward0", "log", via64(np.log), "grad / self", ("self",),
             lambda ctx, g: (g / ctx.self,), 0.3, 3.0)
Sqrt = _unary("SqrtBackward0", "sqrt", np.sqrt, "grad / (2 * result)", ("result",),
              lambda ctx, g: (g / MulScalar.apply(ctx.result, 2),), 0.3, 3.0)   # result * 2
Rsqrt = _unary("RsqrtBackward0", "rsqrt", lambda x: 1 / np.sqrt(x),
               "-0.5 * grad * result**3", ("result",),
               lambda ctx, g: (g * -0.5 * ctx.result ** 3,), 0.3, 3.0)
Sin = _unary("SinBackward0", "sin", via64(np.sin), "grad * cos(self)", ("self",),
             _sin_backward)
Cos = _unary("CosBackward0", "cos", via64(np.cos), "-grad * sin(self)", ("self",),
             lambda ctx, g: (g * -ctx.self.sin(),))
Tan = _unary("TanBackward0", "tan", via64(np.tan), "grad * (1 + result**2)", ("result",),
             lambda ctx, g: (g * (ctx.result * ctx.result + 1),), -1.0, 1.0)
Tanh = _unary("TanhBackward0", "tanh", via64(np.tanh), "grad * (1 - result**2)", ("result",),
              _tanh_backward)
Sigmoid = _unary("SigmoidBackward0", "sigmoid", _sigmoid,
                 "grad * result * (1 - result)", ("result",),
                 lambda ctx, g: (SigmoidBackward.apply(g, ctx.result),))
Relu = _unary("ReluBackward0", "relu", lambda x: np.maximum(x, 0), "grad * (result > 0)",
              ("result",), lambda ctx, g: (ThresholdBackward.apply(g, ctx.result, 0),),
              float_only=False)
Abs = _unary("AbsBackward0", "abs", lambda x: _cx.abs(x) if x.dtype.kind == "c" else np.abs(x),
             "grad * sgn(self)", ("self",),
             lambda ctx, g: (g * Sgn.apply(ctx.self),), float_only=False)
Sign = _unary("SignBackward0", "sign", np.sign, "0", (), lambda ctx, g: (_zeros(g),),
              float_only=False)
# sgn is sign extended to complex numbers; on real tensors the same values, but abs's
# derivative is written with it, so x.abs()'s second-order graph names SgnBackward0
Sgn = _unary("SgnBackward0", "sgn", lambda x: _cx.sgn(x) if x.dtype.kind == "c" else np.sign(x),
             "0 (real); (grad - result * real(grad * conj(result))) / |self| (complex)",
             ("self", "result"), lambda ctx, g: (_sgn_backward(ctx, g),), float_only=False)
Reciprocal = _unary("ReciprocalBackward0", "reciprocal", lambda x: 1 / x,
                    "-grad * result**2", ("result",),
                    lambda ctx, g: (g * -(ctx.result * ctx.result),), 0.5, 2.0)
Log2 = _unary("Log2Backward0", "log2", via64(np.log2), "grad / (self * ln 2)", ("self",),
              lambda ctx, g: (g / (ctx.self * float(np.log(2))),), 0.3, 3.0)
Log10 = _unary("Log10Backward0", "log10", via64(np.log10), "grad / (self * ln 10)", ("self",),
               lambda ctx, g: (g / (ctx.self * float(np.log(10))),), 0.3, 3.0)
Log1p = _unary("Log1PBackward0", "log1p", via64(np.log1p), "grad / (1 + self)", ("self",),
               lambda ctx, g: (g / (ctx.self + 1),), -0.5, 2.0)
Expm1 = _unary("Expm1Backward0", "expm1", via64(np.expm1), "grad * (result + 1)", ("result",),
               lambda ctx, g: (g * (ctx.result + 1),))
Sinh = _unary("SinhBackward0", "sinh", np.sinh, "grad * cosh(self)", ("self",),
              lambda ctx, g: (g * ctx.self.cosh(),))
Cosh = _unary("CoshBackward0", "cosh", np.cosh, "grad * sinh(self)", ("self",),
              lambda ctx, g: (g * ctx.self.sinh(),))
Atan = _unary("AtanBackward0", "atan", via64(np.arctan), "grad / (1 + self**2)", ("self",),
              lambda ctx, g: (g / (ctx.self * ctx.self + 1),))
Asin = _unary("AsinBackward0", "asin", via64(np.arcsin), "grad / sqrt(1 - self**2)", ("self",),
              lambda ctx, g: (g * (1 - ctx.self * ctx.self).rsqrt(),), -0.9, 0.9)

Exp2 = _unary("Exp2Backward0", "exp2", via64(np.exp2), "grad * result * ln 2", ("result",),
              lambda ctx, g: (g * ctx.result * float(np.log(2)),))
_erf = np.frompyfunc(math.erf, 1, 1)
# (an integer tensor reaches the forward only in place, erf_, where a float result is refused)
Erf = _unary("ErfBackward0", "erf",
             lambda x: np.asarray(_erf(x), dtype=x.dtype if x.dtype.kind == "f" else F32),
             "grad * 2/sqrt(pi) * exp(-self**2)", ("self",),
             lambda ctx, g: ((-(ctx.self * ctx.self)).exp() * (2 / math.sqrt(math.pi)) * g,))
# rounding: flat almost everywhere, so the gradient is zero (PyTorch records them anyway)
Floor = _unary("FloorBackward0", "floor", np.floor, "0", (), lambda ctx, g: (_zeros(g),),
               float_only=False)
Ceil = _unary("CeilBackward0", "ceil", np.ceil, "0", (), lambda ctx, g: (_zeros(g),),
              float_only=False)
Round = _unary("RoundBackward0", "round", np.round, "0", (), lambda ctx, g: (_zeros(g),),
               float_only=False)
Trunc = _unary("TruncBackward0", "trunc", np.trunc, "0", (), lambda ctx, g: (_zeros(g),),
               float_only=False)


class Where(Op):
    """out = self where condition else other"""
    grad_fn_name, n_inputs, name = "WhereBackward0", 2, "where"
    jvp = "linear"
    saves = ("condition", "_self_sym_sizes", "_other_sym_sizes")
    rule = "grad where condition, grad where not condition"

    def forward(self, other, condition):
        return np.where(condition._data, self, other)

    def backward(ctx, grad):
        c = ctx.condition
        zero = _zero(grad)
        return (sum_to(where(c, grad, zero), ctx._self_sym_sizes),
                sum_to(where(c, zero, grad), ctx._other_sym_sizes))

    @classmethod
    def sample_inputs(cls, make, shape):
        from ..factories import tensor
        x, y = make(shape), make(shape)
        yield x, y, tensor(np.random.default_rng(0).random(shape) > 0.5)


# ---- public entry points ------------------------------------------------------------------
def where(condition, input=None, other=None) -> Tensor:
    """Pick from input where condition holds, else from other (`torch.where`)."""
    if input is None:
        return tuple(_plain(i) for i in np.nonzero(condition._data))
    a, b = _pair(input, other)
    return Where.apply(a, b, condition)


def exp(input) -> Tensor:
    return Exp.apply(input)


def log(input) -> Tensor:
    return Log.apply(input)


def sqrt(input) -> Tensor:
    return Sqrt.apply(input)


def rsqrt(input) -> Tensor:
    return Rsqrt.apply(input)


def sin(input) -> Tensor:
    return Sin.apply(input)


def cos(input) -> Tensor:
    return Cos.apply(input)


def tan(input) -> Tensor:
    return Tan.apply(input)


def tanh(input) -> Tensor:
    return Tanh.apply(input)


def sigmoid(input) -> Tensor:
    return Sigmoid.apply(input)


def relu(input) -> Tensor:
    if input._data.dtype.kind == "c":   # PyTorch's relu is clamp_min(0)
        raise NotImplementedError("clamp is not supported for complex types")
    return Relu.apply(input)


def abs(input) -> Tensor:
    return Abs.apply(input)


def sign(input) -> Tensor:
    return Sign.apply(input)


def sgn(input) -> Tensor:
    return Sgn.apply(input)


def reciprocal(input) -> Tensor:
    return Reciprocal.apply(input)


def log2(input) -> Tensor:
    return Log2.apply(input)


def log10(input) -> Tensor:
    return Log10.apply(input)


def log1p(input) -> Tensor:
    return Log1p.apply(input)


def expm1(input) -> Tensor:
    return Expm1.apply(input)


def sinh(input) -> Tensor:
    return Sinh.apply(input)


def cosh(input) -> Tensor:
    return Cosh.apply(input)


def atan(input) -> Tensor:
    return Atan.apply(input)


def asin(input) -> Tensor:
    return Asin.apply(input)


def floor(a) -> Tensor:
    return Floor.apply(a)


def ceil(a) -> Tensor:
    return Ceil.apply(a)


def trunc(a) -> Tensor:
    return Trunc.apply(a)


class RoundDecimals(Op):
    """out = self rounded half to even at `decimals` digits (negative: left of the point)"""
    grad_fn_name, name = "RoundBackward1", "round"
    rule = "0"

    def forward(self, decimals):
        with np.errstate(all="ignore"):     # huge |decimals| give nan, as in PyTorch
            return np.round(self, decimals)

    def backward(ctx, grad):
        return (_zeros(grad),)

    @classmethod
    def sample_inputs(cls, make, shape):
        yield from ((x, 1) for (x,) in _samples.unary(make, shape, -2.0, 2.0))


def round(a, decimals=None) -> Tensor:
    """`torch.round`: half to even; passing decimals (even 0) is PyTorch's other overload,
    RoundBackward1, which integer tensors do not have."""
    if decimals is None:
        return Round.apply(a)
    if a._data.dtype.kind not in "fc":
        raise NotImplementedError(
            f"\"round_cpu\" not implemented for '{a.dtype.legacy[:-6]}'")
    return RoundDecimals.apply(a, int(decimals))


def exp2(input) -> Tensor:
    return Exp2.apply(input)


def erf(input) -> Tensor:
    return Erf.apply(input)
