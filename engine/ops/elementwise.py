"""Elementwise math: exp/log, roots, trigonometry, activations, rounding, clamp, max/min, where.

PyTorch counterparts: `torch.exp`, `torch.sin`, `torch.sigmoid`, `torch.relu`, `torch.clamp`,
`torch.maximum`, `torch.where`. Each class holds one op's forward (numpy) and backward (engine
Tensor ops); most are one `_unary(...)` line. Arithmetic lives in `arithmetic.py`.
"""
from __future__ import annotations

import math

import numpy as np

from ..tensor import Tensor, new_tensor
from . import _samples
from ._broadcast import records_nothing, sum_to
from ._exact import SMALL, via64
from .. import _events
from ..grad_mode import state as _grad_state
from ._op import Op
from .arithmetic import MulScalar, _pair
from .grad_ops import SigmoidBackward, TanhBackward, ThresholdBackward

_plain = new_tensor


def _num(v):
    return v.item() if isinstance(v, Tensor) else v


def _plain_backward(grad: Tensor, like: Tensor) -> bool:
    """Whether a backward may compute in numpy into its own temporaries: nothing is recorded
    or reported (no create_graph, no listener), and the arrays are large, same-shaped and of
    one dtype, so the in-place numpy ops round exactly as the Tensor ops they stand for."""
    g, x = grad._data, like._data
    return (x.size > SMALL and records_nothing() and g.shape == x.shape
            and g.dtype == x.dtype)


def _zeros(g: Tensor) -> Tensor:
    """PyTorch's zeros_like(grad): a plain tensor of +0.0 (g * 0 would give -0.0 for g < 0)."""
    return _plain(np.zeros_like(g._data))


def _zero(g: Tensor) -> Tensor:
    """A 0-d +0.0 of grad's dtype: what PyTorch's where(mask, grad, 0) backwards fill in."""
    return _plain(np.zeros((), g._data.dtype))


def _sin_backward(ctx, g):
    if _plain_backward(g, ctx.self):     # g * cos(self) into cos's fresh array
        c = Cos.forward(ctx.self._data)
        return (new_tensor(np.multiply(g._data, c, out=c)),)
    return (g * ctx.self.cos(),)


def _tanh_backward(ctx, g):
    return (TanhBackward.apply(g, ctx.result),)      # its own node, as PyTorch's tanh_backward


def _sigmoid(x):
    # PyTorch: 1 / (1 + exp(-x)) with exp rounded to the input type before the division
    e = via64(np.exp)(-x)
    return (1 / (1 + e)).astype(x.dtype)


def _unary(grad_fn, fname, fwd, rule, saves, bwd, low=-2.0, high=2.0, float_only=True):
    """Declare a one-input op: `fwd` on arrays, `bwd(ctx, grad)` in Tensor ops."""
    ns = {"grad_fn_name": grad_fn, "name": fname, "rule": rule, "saves": saves,
          "forward_params": ("self",),
          "float_only": float_only, "forward": staticmethod(fwd), "backward": staticmethod(bwd),
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
Abs = _unary("AbsBackward0", "abs", np.abs, "grad * sgn(self)", ("self",),
             lambda ctx, g: (g * Sgn.apply(ctx.self),), float_only=False)
Sign = _unary("SignBackward0", "sign", np.sign, "0", (), lambda ctx, g: (_zeros(g),),
              float_only=False)
# sgn is sign extended to complex numbers; on real tensors the same values, but abs's
# derivative is written with it, so x.abs()'s second-order graph names SgnBackward0
Sgn = _unary("SgnBackward0", "sgn", np.sign, "0", (), lambda ctx, g: (_zeros(g),),
             float_only=False)
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
Erf = _unary("ErfBackward0", "erf", lambda x: np.asarray(_erf(x), dtype=x.dtype),
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


class Clamp(Op):
    """out = min(max(self, min), max)"""
    grad_fn_name, name = "ClampBackward1", "clamp"
    saves = ("max", "min", "self")
    rule = "grad where min <= self <= max, else 0"

    def forward(self, min, max):  # noqa: A002 - PyTorch's argument names
        return np.clip(self, min, max) if min is not None or max is not None else self.copy()

    def backward(ctx, grad):
        x, lo, hi = ctx.self, ctx.min, ctx.max
        mask = None
        if lo is not None:
            mask = x >= lo
        if hi is not None:
            mask = (x <= hi) if mask is None else mask & (x <= hi)
        return (where(mask, grad, _zero(grad)),)      # +0.0 outside, as PyTorch

    @classmethod
    def sample_inputs(cls, make, shape):
        yield make(shape), -1.0, 1.0
        yield make(shape), 0.5, None


class ClampTensor(Op):
    """out = min(max(self, min), max) with tensor bounds (either may be None)"""
    grad_fn_name, n_inputs, name = "ClampBackward0", 3, "clamp"
    saves = ("max", "min", "self")
    rule = ("grad where min <= self <= max (to self), where self < min < max (to min), "
            "where self > max or max < min (to max)")

    @classmethod
    def apply(cls, self, min=None, max=None):  # noqa: A002
        # hand-written: an absent bound is no input at all, yet keeps its (None, 0) edge
        inputs = (self, min, max)
        present = [t for t in inputs if t is not None]
        arrays = iter(_promote_all(present))
        x, lo, hi = (None if t is None else next(arrays) for t in inputs)
        try:
            out = cls.forward(x, lo, hi)
        except ValueError:
            shapes = [a.shape for a in (x, lo, hi) if a is not None]
            raise RuntimeError(_first_mismatch(shapes)) from None
        result = new_tensor(out)
        node = None
        if _grad_state.enabled and any(t._rg for t in present):
            node = cls._make_node(inputs, result, inputs, None)
        if _events.listener is not None and not _grad_state.quiet:
            _events.listener.on_op(cls.name, tuple(present), result, node)
        return result

    def forward(self, min, max):  # noqa: A002
        out = self if min is None else np.maximum(self, min)
        return out if max is None else np.minimum(out, max)

    def backward(ctx, grad):
        a, b, c = ctx.needs_input_grad
        x, lo, hi, zero = ctx.self, ctx.min, ctx.max, _zero(grad)
        if lo is not None and hi is not None:   # PyTorch's clamp_backward(_min_max)
            keep = (x >= lo) & (x <= hi)
            to_lo, to_hi = (x < lo) & (lo < hi), (x > hi) | (hi < lo)
        else:
            keep = x >= lo if hi is None else x <= hi
            to_lo = x < lo if hi is None else None
            to_hi = x > hi if lo is None else None
        return (sum_to(where(keep, grad, zero), x._data.shape) if a else None,
                sum_to(where(to_lo, grad, zero), lo._data.shape) if b else None,
                sum_to(where(to_hi, grad, zero), hi._data.shape) if c else None)

    @classmethod
    def sample_inputs(cls, make, shape):
        for lo, hi in _samples.binary_apart(make, shape):
            yield make(shape), lo, None
            yield make(shape), None, hi
        x, lo = next(_samples.binary_apart(make, shape))
        hi = make(shape, 2.5, 3.0)
        yield x, lo, hi
        yield x, hi.detach(), lo           # min > max: everything goes to max


def _promote_all(tensors: list) -> list:
    """The arrays of `tensors` cast to their common PyTorch dtype."""
    from ..dtypes import of_array, result_type
    arrays = [t._data for t in tensors]
    target = result_type([of_array(a) for a in arrays if a.ndim],
                         [of_array(a) for a in arrays if not a.ndim], []).np
    return [a if a.dtype == target else a.astype(target) for a in arrays]


def _first_mismatch(shapes: list) -> str:
    from ..messages import size_mismatch
    shape = shapes[0]
    for other in shapes[1:]:
        msg = size_mismatch(shape, other)
        if msg:
            return msg
        shape = np.broadcast_shapes(shape, other)
    return "shape mismatch"


class ClampMin(Op):
    """out = max(self, min), min a number"""
    grad_fn_name, name = "ClampMinBackward0", "clamp_min"
    saves = ("min", "self")
    rule = "grad where self >= min, else 0"

    def forward(self, min):  # noqa: A002 - PyTorch's argument name
        return np.maximum(self, min).astype(self.dtype, copy=False)

    def backward(ctx, grad):
        return (where(ctx.self >= ctx.min, grad, _zero(grad)),)

    sample_inputs = classmethod(lambda cls, make, shape: iter([(make(shape), 0.25)]))


class ClampMinTensor(Op):
    """out = max(self, min), min a tensor"""
    grad_fn_name, n_inputs, name = "ClampMinBackward1", 2, "clamp_min"
    saves = ("min", "self")
    rule = "grad where self >= min, the rest to min"

    def forward(self, min):  # noqa: A002
        return np.maximum(self, min)

    def backward(ctx, grad):
        a, b = ctx.needs_input_grad
        x, lo, zero = ctx.self, ctx.min, _zero(grad)
        return (sum_to(where(x >= lo, grad, zero), x._data.shape) if a else None,
                sum_to(where(x < lo, grad, zero), lo._data.shape) if b else None)

    sample_inputs = classmethod(lambda cls, make, shape: _samples.binary_apart(make, shape))


class ClampMax(Op):
    """out = min(self, max), max a number"""
    grad_fn_name, name = "ClampMaxBackward0", "clamp_max"
    saves = ("max", "self")
    rule = "grad where self <= max, else 0"

    def forward(self, max):  # noqa: A002
        return np.minimum(self, max).astype(self.dtype, copy=False)

    def backward(ctx, grad):
        return (where(ctx.self <= ctx.max, grad, _zero(grad)),)

    sample_inputs = classmethod(lambda cls, make, shape: iter([(make(shape), 0.25)]))


class ClampMaxTensor(Op):
    """out = min(self, max), max a tensor"""
    grad_fn_name, n_inputs, name = "ClampMaxBackward1", 2, "clamp_max"
    saves = ("max", "self")
    rule = "grad where self <= max, the rest to max"

    def forward(self, max):  # noqa: A002
        return np.minimum(self, max)

    def backward(ctx, grad):
        a, b = ctx.needs_input_grad
        x, hi, zero = ctx.self, ctx.max, _zero(grad)
        return (sum_to(where(x <= hi, grad, zero), x._data.shape) if a else None,
                sum_to(where(x > hi, grad, zero), hi._data.shape) if b else None)

    sample_inputs = classmethod(lambda cls, make, shape: _samples.binary_apart(make, shape))


class Maximum(Op):
    """out = max(self, other), elementwise; ties split the gradient"""
    grad_fn_name, n_inputs, name = "MaximumBackward0", 2, "maximum"
    saves = ("other", "self")
    rule = "grad where self > other (half on ties), the rest to other"

    def forward(self, other):
        return np.maximum(self, other)

    def backward(ctx, grad):
        x, y = ctx.self, ctx.other
        return _extreme_pair(x, y, grad, x < y, x > y)

    sample_inputs = classmethod(lambda cls, make, shape: _samples.binary_apart(make, shape))


def _extreme_pair(x: Tensor, y: Tensor, grad: Tensor, x_lost, y_lost) -> tuple:
    """maximum's and minimum's gradients as PyTorch writes them: where(x == y, grad / 2,
    grad) with +0.0 filled in where the input lost."""
    tie = where(x == y, grad / 2, grad)
    return (sum_to(tie.masked_fill(x_lost, 0), x._data.shape),
            sum_to(tie.masked_fill(y_lost, 0), y._data.shape))


class Minimum(Op):
    """out = min(self, other), elementwise; ties split the gradient"""
    grad_fn_name, n_inputs, name = "MinimumBackward0", 2, "minimum"
    saves = ("other", "self")
    rule = "grad where self < other (half on ties), the rest to other"

    def forward(self, other):
        return np.minimum(self, other)

    def backward(ctx, grad):
        x, y = ctx.self, ctx.other
        return _extreme_pair(x, y, grad, x > y, x < y)

    sample_inputs = classmethod(lambda cls, make, shape: _samples.binary_apart(make, shape))


class Where(Op):
    """out = self where condition else other"""
    grad_fn_name, n_inputs, name = "WhereBackward0", 2, "where"
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
def clamp(input, min=None, max=None, *, _name="clamp", _method=False) -> Tensor:  # noqa: A002
    """Limit values to [min, max] (`torch.clamp`); either bound may be None, and the bounds are
    both numbers (ClampBackward1) or both tensors (ClampBackward0, gradients to the bounds)."""
    if min is None and max is None:
        raise RuntimeError("torch.clamp: At least one of 'min' or 'max' must not be None")
    bounds = [v for v in (min, max) if v is not None]
    tensors = [v for v in bounds if isinstance(v, Tensor)]
    if tensors and len(tensors) == len(bounds):
        return ClampTensor.apply(input, min, max)
    # a tensor beside a number: PyTorch's argument parser takes a 0-d tensor that needs no
    # grad as a Number; any other tensor matches neither overload
    if any(t.ndim or t.requires_grad for t in tensors):
        raise TypeError(_clamp_args_error(_name, _method, min, max))
    return Clamp.apply(input, _num(min), _num(max))


def _clamp_args_error(name: str, method: bool, min, max) -> str:  # noqa: A002
    got = [type(v).__name__ for v in (min, max) if v is not None]
    if method:
        marked = ", ".join(f"!{g}!" for g in got)
        why = f"      didn't match because some of the arguments have invalid types: ({marked})\n"
        return (f"{name}() received an invalid combination of arguments - got "
                f"({', '.join(got)}), but expected one of:\n"
                f" * (Tensor min = None, Tensor max = None)\n{why}"
                f" * (Number min = None, Number max = None)\n{why}")
    return (f"{name}() received an invalid combination of arguments - got "
            f"(Tensor, {', '.join(got)}), but expected one of:\n"
            " * (Tensor input, Tensor min = None, Tensor max = None, *, Tensor out = None)\n"
            " * (Tensor input, Number min = None, Number max = None, *, Tensor out = None)\n")


def clip(input, min=None, max=None) -> Tensor:  # noqa: A002
    """An alias of `clamp` (`torch.clip`)."""
    return clamp(input, min, max, _name="clip")


def clamp_min(input, min) -> Tensor:  # noqa: A002
    """max(input, min) elementwise (`torch.clamp_min`); min a number or a tensor."""
    if isinstance(min, Tensor):
        return ClampMinTensor.apply(input, min)
    return ClampMin.apply(input, min)


def clamp_max(input, max) -> Tensor:  # noqa: A002
    """min(input, max) elementwise (`torch.clamp_max`); max a number or a tensor."""
    if isinstance(max, Tensor):
        return ClampMaxTensor.apply(input, max)
    return ClampMax.apply(input, max)


def maximum(input, other) -> Tensor:
    return Maximum.apply(input, other)


def minimum(input, other) -> Tensor:
    return Minimum.apply(input, other)


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
    return Relu.apply(input)


def abs(input) -> Tensor:  # noqa: A001
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


def round(a, decimals: int = 0) -> Tensor:  # noqa: A001
    if decimals:
        return _plain(np.round(a._data, decimals))
    return Round.apply(a)


def exp2(input) -> Tensor:
    return Exp2.apply(input)


def erf(input) -> Tensor:
    return Erf.apply(input)
