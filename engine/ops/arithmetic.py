"""Arithmetic: `+ - * / **` and negation, for tensor and number operands, reflected too.

PyTorch counterparts: `torch.add`, `torch.sub`/`torch.rsub`, `torch.mul`, `torch.div`,
`torch.pow`, `torch.neg`. Each PyTorch overload that names its node differently (tensor ** number
is PowBackward0, tensor ** tensor PowBackward1, number ** tensor PowBackward2) is its own class.
Numbers are wrapped as 0-d tensors (PyTorch's "wrapped numbers"), so `a * 2` lists `(None, 0)`
for the 2 in next_functions; every binary backward reduces through `sum_to`.
"""
from __future__ import annotations

import numpy as np

from .. import dtypes, messages
from ..foreign_operands import refuse
from ..tensor import Tensor, new_tensor
from . import _complex_order, _local_rows, _samples
from ._broadcast import records_nothing, sum_to
from ._exact import F32, SMALL, fma32
from ._op import Op, scalar
from .complex import conj
from .inplace import apply_inplace

_plain = new_tensor


def _pair(a, b, fn: str = "") -> tuple:
    """Both operands as Tensors, a number wrapped; `fn` (a torch function's name) refuses any
    other operand as PyTorch's argument parser does (torch.add(t, np.ones(3)))."""
    if not isinstance(a, Tensor):
        a = scalar(refuse(a, fn, "input", 1) if fn else a, b)
    if not isinstance(b, Tensor):
        b = scalar(refuse(b, fn, "other", 2) if fn else b, a)
    return a, b


class Add(Op):
    """out = self + alpha * other"""
    grad_fn_name, n_inputs, name = "AddBackward0", 2, "add"
    elementwise = True
    saves = ("alpha", "_self_sym_sizes", "_other_sym_sizes")
    rule = "grad, alpha * grad (summed over broadcast dims)"

    def forward(self, other, alpha):
        if alpha == 1 and alpha is not True:
            return self + other
        check_alpha(self.dtype, alpha)
        return _add_scaled(self, other, alpha)

    def backward(ctx, grad):
        a, b = ctx.needs_input_grad
        return (sum_to(grad, ctx._self_sym_sizes) if a else None,
                sum_to(grad if ctx.alpha == 1 else grad * ctx.alpha, ctx._other_sym_sizes)
                if b else None)

    def jvp(ctx, self_t, other_t):     # self_t + alpha * other_t, a missing term skipped
        if other_t is not None and ctx.alpha != 1:
            other_t = other_t * ctx.alpha
        if self_t is None or other_t is None:
            return other_t if self_t is None else self_t
        return self_t + other_t

    @classmethod
    def sample_inputs(cls, make, shape):
        for a, b in _samples.binary(make, shape):
            yield a, b, 1
        yield make(shape), make(shape), 2.5

    @classmethod
    def local_rows(cls, node, a, sizes):    # the factors 1 and 1 (_local_rows.py)
        return _local_rows.signed(node, cls, a, sizes, 1.0)


class Sub(Op):
    """out = self - alpha * other"""
    grad_fn_name, n_inputs, name = "SubBackward0", 2, "sub"
    elementwise = True
    saves = ("alpha", "_self_sym_sizes", "_other_sym_sizes")
    rule = "grad, -alpha * grad"

    def forward(self, other, alpha):
        try:
            if alpha == 1 and alpha is not True:
                return self - other
            check_alpha(self.dtype, alpha)
            return _add_scaled(self, other, -alpha)
        except TypeError:     # numpy refuses bool - bool; sub() catches a single bool operand
            raise RuntimeError(messages.bool_subtraction(True)) from None

    def backward(ctx, grad):
        a, b = ctx.needs_input_grad
        return (sum_to(grad, ctx._self_sym_sizes) if a else None,
                sum_to(-grad if ctx.alpha == 1 else grad * -ctx.alpha, ctx._other_sym_sizes)
                if b else None)

    def jvp(ctx, self_t, other_t):     # self_t - alpha * other_t, a missing term skipped
        if other_t is not None and ctx.alpha != 1:
            other_t = other_t * ctx.alpha
        if other_t is None:
            return self_t
        return -other_t if self_t is None else self_t - other_t

    @classmethod
    def sample_inputs(cls, make, shape):
        for a, b in _samples.binary(make, shape):
            yield a, b, 1

    @classmethod
    def local_rows(cls, node, a, sizes):    # the factors 1 and -1 (_local_rows.py)
        return _local_rows.signed(node, cls, a, sizes, -1.0)


class RsubScalar(Op):
    """out = other - alpha * self, other a number (``2 - x``)"""
    grad_fn_name, name = "RsubBackward1", "rsub"
    saves = ("alpha",)
    rule = "-alpha * grad"

    def forward(self, other, alpha):
        if self.dtype.kind == "b":
            raise RuntimeError(messages.bool_subtraction(False))
        dtype = self.dtype
        if dtype.kind not in "fc" and isinstance(other, (float, np.floating)):
            dtype = dtypes.get_default_dtype().np     # 2.5 - ints is a float tensor
        elif dtype.kind != "c" and isinstance(other, (complex, np.complexfloating)):
            dtype = dtypes.result_type([dtypes.of_array(self)], [], [other]).np   # 1j - x
        # alpha is almost always 1 (`1 - x`): skip a whole-array multiply then
        return np.asarray(other - (self if alpha == 1 else alpha * self), dtype=dtype)

    def backward(ctx, grad):
        return (-grad if ctx.alpha == 1 else grad * -ctx.alpha,)

    @classmethod
    def sample_inputs(cls, make, shape):
        yield make(shape), 2.0, 1


class AddScalar(Op):
    """out = self + other, other a number (PyTorch's add.Scalar, met in derivative formulas)"""
    grad_fn_name, name = "AddBackward1", "add"
    rule = "grad"

    def forward(self, other):
        return np.asarray(self + other, dtype=self.dtype)

    def backward(ctx, grad):
        return (grad,)

    @classmethod
    def sample_inputs(cls, make, shape):
        yield make(shape), 1.0


class SubScalar(Op):
    """out = self - other, other a number (PyTorch's sub.Scalar, met in derivative formulas)"""
    grad_fn_name, name = "SubBackward1", "sub"
    rule = "grad"

    def forward(self, other):
        return np.asarray(self - other, dtype=self.dtype)

    def backward(ctx, grad):
        return (grad,)

    @classmethod
    def sample_inputs(cls, make, shape):
        yield make(shape), 1.0


class Mul(Op):
    """out = self * other"""
    grad_fn_name, n_inputs, name = "MulBackward0", 2, "mul"
    elementwise = True
    saves = ("other", "self", "_self_sym_sizes", "_other_sym_sizes")
    save_when = {"self": 1, "other": 0}
    rule = "grad * other, grad * self"

    def forward(self, other):
        if self.dtype.kind == "c":
            return _complex_order.mul(self, other)     # PyTorch's roundings
        return self * other

    def backward(ctx, grad):
        a, b = ctx.needs_input_grad
        if a and b and ctx.self is ctx.other and records_nothing():
            # x * x: both products are grad * x, so one serves both (the walk still adds the
            # two, as PyTorch does); a recorded backward keeps its two MulBackward0 nodes
            g = sum_to(grad * conj(ctx.other), ctx._self_sym_sizes)
            return g, g
        # conj: NOTE [complex gradients] in complex.py (a real tensor passes as it is)
        return (sum_to(grad * conj(ctx.other), ctx._self_sym_sizes) if a else None,
                sum_to(grad * conj(ctx.self), ctx._other_sym_sizes) if b else None)

    def jvp(ctx, self_t, other_t):     # PyTorch's other_t * self + self_t * other
        left = None if other_t is None else other_t * ctx.self
        right = None if self_t is None else self_t * ctx.other
        if left is None or right is None:
            return right if left is None else left
        return left + right

    sample_inputs = classmethod(lambda cls, make, shape: _samples.binary(make, shape))

    @classmethod
    def local_rows(cls, node, a, sizes):    # the factors other and self (_local_rows.py)
        factors = [None if fn is None else _local_rows.saved_array(node, cls, name, a.dtype)
                   for fn, name in zip(node._fns, ("other", "self"))]
        if any(f is None for f, fn in zip(factors, node._fns) if fn is not None):
            return None
        return _local_rows.summed(node, cls, a, sizes,
                                  [None if f is None else f.astype(np.float64) for f in factors])


class MulScalar(Op):
    """out = self * other, other a number (PyTorch's mul.Scalar, met in derivative formulas)"""
    grad_fn_name, name = "MulBackward1", "mul"
    jvp = "linear"
    saves = ("other",)
    rule = "grad * other"

    def forward(self, other):
        return self * other

    def backward(ctx, grad):
        return (MulScalar.apply(grad, ctx.other),)

    @classmethod
    def sample_inputs(cls, make, shape):
        yield make(shape), 2.5


class Div(Op):
    """out = self / other"""
    grad_fn_name, n_inputs, name = "DivBackward0", 2, "div"
    elementwise = True
    saves = ("other", "self", "_self_sym_sizes")
    save_when = {"self": 1}
    rule = "grad / other, -grad * self / other**2"
    float_only = True

    def forward(self, other):
        if self.dtype.kind == "c":
            return _complex_order.div(self, other)     # PyTorch's roundings
        return self / other

    def backward(ctx, grad):
        a, b = ctx.needs_input_grad
        y = ctx.other
        return (sum_to(grad / conj(y), ctx._self_sym_sizes) if a else None,   # PyTorch's order:
                sum_to(-grad * conj(ctx.self / y / y), y._data.shape) if b else None)

    def jvp(ctx, self_t, other_t):     # PyTorch's (self_t - other_t * result) / other
        if other_t is None:
            return self_t / ctx.other
        num = -(other_t * ctx.result) if self_t is None else self_t - other_t * ctx.result
        return num / ctx.other

    @classmethod
    def sample_inputs(cls, make, shape):
        for other in _samples.broadcast_partner(shape):
            yield make(shape), make(other, 0.5, 2.0)


class Neg(Op):
    """out = -self"""
    grad_fn_name, name, rule = "NegBackward0", "neg", "-grad"
    jvp = "linear"

    def forward(self):
        try:
            return -self
        except TypeError:     # numpy refuses to negate bools, in its own words
            raise RuntimeError(messages.BOOL_NEGATION) from None

    def backward(ctx, grad):
        return (-grad,)

    sample_inputs = classmethod(lambda cls, make, shape: _samples.unary(make, shape))


class PowScalar(Op):
    """out = self ** exponent, exponent a number"""
    grad_fn_name, name = "PowBackward0", "pow"
    jvp = "elementwise"
    saves = ("exponent", "self")
    rule = "grad * exponent * self**(exponent - 1)"

    def forward(self, exponent):
        if self.dtype.kind not in "fc" and isinstance(exponent, float):
            self = self.astype(dtypes.get_default_dtype().np)   # int ** 0.5 is a float tensor
        if self.dtype.kind == "f":
            return _float_pow(self, exponent)
        return np.asarray(self ** exponent, dtype=self.dtype)

    def backward(ctx, grad):
        p, x = ctx.exponent, ctx.self
        if p == 0:   # PyTorch returns plain zeros here, cut from any graph
            return (_plain(np.zeros_like(x._data)),)
        # exponent * x ** (p - 1) is PyTorch's Tensor-times-Scalar (MulBackward1 under
        # create_graph); x ** (p - 1) is computed as forward computes it: PyTorch's bits
        return (grad * conj(MulScalar.apply(x ** (p - 1), p)),)

    @classmethod
    def sample_inputs(cls, make, shape):
        for p in (2, 3, 0.5, -1.5):
            yield make(shape, 0.5, 2.0), p


class PowTensor(Op):
    """out = self ** exponent, both tensors"""
    grad_fn_name, n_inputs, name = "PowBackward1", 2, "pow"
    saves = ("exponent", "result", "self")
    rule = "grad * exponent * self**(exponent-1), grad * result * log(self)"

    def forward(self, exponent):
        if self.dtype == np.float32 and exponent.dtype == np.float32 and self.size <= SMALL:
            return np.power(self, exponent, dtype=np.float64).astype(np.float32)  # powf's bits
        return self ** exponent

    def backward(ctx, grad):
        # PyTorch's pow_backward_self and pow_backward_exponent: where(exponent == 0, 0, ...)
        # and 0 where self == 0 <= exponent, so create_graph records their WhereBackward0
        from .elementwise import _zero, where
        a, b = ctx.needs_input_grad
        x, p = ctx.self, ctx.exponent
        gx = gp = None
        if a:
            gx = where(p == 0, _zero(grad), grad * conj(p * x ** SubScalar.apply(p, 1)))
        if b:
            gp = grad * conj(where((x == 0) & (p >= 0), _zero(grad), ctx.result * x.log()))
        return (sum_to(gx, x._data.shape) if a else None,
                sum_to(gp, p._data.shape) if b else None)

    def jvp(ctx, self_t, exponent_t):   # PyTorch's: the two backward formulas on the tangents
        from .elementwise import _zero, where
        x, p = ctx.self, ctx.exponent
        left = right = None
        if self_t is not None:
            left = where(p == 0, _zero(self_t), self_t * (p * x ** SubScalar.apply(p, 1)))
        if exponent_t is not None:
            right = exponent_t * where((x == 0) & (p >= 0), _zero(exponent_t),
                                       ctx.result * x.log())
        if left is None or right is None:
            return right if left is None else left
        return left + right

    @classmethod
    def sample_inputs(cls, make, shape):
        for other in _samples.broadcast_partner(shape):
            yield make(shape, 0.5, 2.0), make(other)


class RpowScalar(Op):
    """out = self ** exponent, self a number (``2 ** x``)"""
    grad_fn_name, name = "PowBackward2", "pow"
    jvp = "elementwise"
    saves = ("exponent", "result", "self")
    rule = "grad * result * log(self)"

    def forward(exponent, self):
        if exponent.dtype.kind != "f" and not isinstance(self, (int, np.integer)):
            exponent = exponent.astype(dtypes.get_default_dtype().np)  # 2.0 ** ints is float
        elif exponent.dtype.kind == "b":
            exponent = exponent.astype(np.int64)                       # 2 ** bools is int64
        if exponent.dtype == np.float32 and exponent.size <= SMALL:     # powf's bits
            return np.power(np.float32(self), exponent, dtype=np.float64).astype(np.float32)
        return np.asarray(self ** exponent, dtype=exponent.dtype)        # 2 ** ints stays int

    def backward(ctx, grad):
        return (grad * (ctx.result * float(np.log(ctx.self))),)

    @classmethod
    def sample_inputs(cls, make, shape):
        yield make(shape), 2.0


def check_alpha(dtype: np.dtype, alpha) -> None:
    """PyTorch's checks of add's and sub's alpha against the result's dtype (True is 1 to
    Python, so they run before any shortcut for alpha == 1)."""
    kind = dtype.kind
    if isinstance(alpha, bool) and kind != "b":
        raise RuntimeError("Boolean alpha only supported for Boolean results.")
    if kind in "biu" and isinstance(alpha, float):
        raise RuntimeError("For integral input tensors, argument alpha must not be a floating "
                           "point number.")
    if kind != "c" and isinstance(alpha, complex):
        raise RuntimeError("For non-complex input tensors, argument alpha must not be a "
                           "complex number.")


def _add_scaled(x: np.ndarray, y: np.ndarray, alpha) -> np.ndarray:
    """x + alpha * y; PyTorch's add kernel rounds it once (a fused multiply-add) for float32
    unless y is a scalar or repeats along the last dim (its other paths: ~95% of those round
    twice, as numpy does)."""
    repeats = (not y.ndim and x.ndim) or (y.ndim and y.shape[-1] == 1 and x.ndim
                                          and x.shape[-1] != 1)
    if (x.dtype == y.dtype == F32 and x.size <= SMALL and y.size <= SMALL and not repeats
            and isinstance(alpha, (int, float))):
        return fma32(y, np.float32(alpha), x)
    return x + alpha * y


def _float_pow(x: np.ndarray, p) -> np.ndarray:
    """x ** p for a float array and a number, with PyTorch's bits: it multiplies for 2 and 3,
    divides for -1 and -2, takes 1 / sqrt for -0.5 and powf (one rounding of the exact power,
    as float64 then float32 gives) for other exponents of small float32 arrays."""
    if p == 2:
        return x * x
    if p == 3:
        return x * x * x
    if p == -1:
        return 1 / x
    if p == -2:
        return 1 / (x * x)
    if p == -0.5:
        return 1 / np.sqrt(x)
    if p == 0.5 or x.dtype != np.float32 or x.size > SMALL:
        return np.asarray(x ** p, dtype=x.dtype)
    return np.power(x, p, dtype=np.float64).astype(np.float32)


# ---- public entry points ------------------------------------------------------------------
def add(input, other, *, alpha=1) -> Tensor:
    """input + alpha * other, broadcasting (`torch.add`)."""
    return Add.apply(*_pair(input, other, "add"), alpha)


def sub(input, other, *, alpha=1) -> Tensor:
    """input - alpha * other (`torch.sub`)."""
    if isinstance(input, Tensor):
        a, b = _pair(input, other, "sub")
        _refuse_bools(a, b)
        return Sub.apply(a, b, alpha)
    return RsubScalar.apply(other, refuse(input, "sub", "input", 1), alpha)


def sub_(input: Tensor, other: Tensor, alpha=1) -> Tensor:
    """input -= alpha * other, in place (`Tensor.sub_`, `-=`)."""
    _refuse_bools(input, other)
    return apply_inplace(Sub, "sub_", input, other, alpha)


def _refuse_bools(a: Tensor, b: Tensor) -> None:
    # checked before promotion, which would turn a bool operand into a number
    if a._data.dtype.kind == "b" or b._data.dtype.kind == "b":
        raise RuntimeError(messages.bool_subtraction(a._data.dtype == b._data.dtype))


def rsub(input, other, *, alpha=1) -> Tensor:
    """other - alpha * input (`torch.rsub`)."""
    if isinstance(other, Tensor):
        return Sub.apply(other, input, alpha)
    return RsubScalar.apply(input, other, alpha)


def mul(input, other) -> Tensor:
    """input * other, broadcasting (`torch.mul`)."""
    return Mul.apply(*_pair(input, other, "mul"))


class _NotGiven:
    """Default of div's rounding_mode: PyTorch takes its rounding overload (DivBackward2)
    whenever the keyword is passed, even as None."""

    def __repr__(self) -> str:
        return "None"


NOT_GIVEN = _NotGiven()


def div(input, other, *, rounding_mode=NOT_GIVEN) -> Tensor:
    """input / other (`torch.div`); a rounding_mode ("floor", "trunc", None) records
    DivBackward2 (engine/ops/rounding.py)."""
    if rounding_mode is not NOT_GIVEN:
        from .rounding import div_rounded
        return div_rounded(input, other, rounding_mode)
    return Div.apply(*_pair(input, other, "div"))     # torch.div(2., w) too: DivBackward0


def rdiv(number, other: Tensor) -> Tensor:
    """number / tensor, the operator (`2 / w`): PyTorch's __rtruediv__ is
    `other.reciprocal() * number`, so it records ReciprocalBackward0 and MulBackward0."""
    from .elementwise import reciprocal
    return Mul.apply(reciprocal(other), scalar(number, other))


def pow(input, exponent) -> Tensor:  # PyTorch's name
    """input ** exponent for tensor/number combinations (`torch.pow`)."""
    if not isinstance(input, Tensor):
        return RpowScalar.apply(exponent, input)
    if isinstance(exponent, Tensor):
        return PowTensor.apply(input, exponent)
    return PowScalar.apply(input, exponent)


def neg(input) -> Tensor:
    return Neg.apply(input)


def square(input) -> Tensor:
    return PowScalar.apply(input, 2)
