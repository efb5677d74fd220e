"""Two-input elementwise math: hypot, copysign, fmax / fmin (max and min that ignore nan),
heaviside and float_power.

PyTorch counterparts: `torch.hypot` (`HypotBackward0`), `torch.copysign` (`CopysignBackward0`
for a tensor `other`, `CopysignBackward1` for a number), `torch.fmax` / `torch.fmin`
(`FmaxBackward0` / `FminBackward0`), `torch.heaviside` (no derivative: a `NotImplemented`
node), `torch.float_power` (pow in float64: `PowBackward0/1/2` after `ToCopyBackward0`).
Inputs broadcast and every backward reduces through
`sum_to`. hypot rounds once from float64 for small float32 arrays (PyTorch's Sleef hypotf is
0.5-ulp); the others are exact in any precision.
"""
from __future__ import annotations

import numpy as np

from ..foreign_operands import _NUMBERS, both_tensors
from ..tensor import Tensor, new_tensor
from . import _samples
from ._broadcast import sum_to
from ._exact import F32, SMALL
from ._op import Op, Underivable
from .arithmetic import pow as _pow


class Hypot(Op):
    """out = sqrt(self**2 + other**2)"""
    grad_fn_name, name, n_inputs = "HypotBackward0", "hypot", 2
    saves = ("other", "self", "result")
    rule = "grad * self / result, grad * other / result"

    def forward(self, other):
        if self.dtype == F32 and max(self.size, other.size) <= SMALL:
            return np.asarray(np.hypot(self, other, dtype=np.float64).astype(F32))
        return np.asarray(np.hypot(self, other))

    def backward(ctx, grad):
        a, b = ctx.needs_input_grad
        x, y, r = ctx.self, ctx.other, ctx.result
        return (sum_to(grad * x / r, x._data.shape) if a else None,
                sum_to(grad * y / r, y._data.shape) if b else None)

    sample_inputs = classmethod(lambda cls, make, shape: _samples.binary(make, shape, 0.3, 2.0))


def _copysign_self_grad(grad: Tensor, x: Tensor, result: Tensor) -> Tensor:
    """PyTorch's copysign_tensor_self_backward: grad * (result / self), 0 where self is 0."""
    return grad * (result / x).masked_fill(x == 0, 0)


class Copysign(Op):
    """out = |self| with the sign of other"""
    grad_fn_name, name, n_inputs = "CopysignBackward0", "copysign", 2
    saves = ("self", "result", "_other_sym_sizes")
    rule = "grad * result / self (0 where self == 0), 0 for other"
    float_only = True

    def forward(self, other):
        return np.asarray(np.copysign(self, other))

    def backward(ctx, grad):
        a, b = ctx.needs_input_grad
        x = ctx.self
        ga = sum_to(_copysign_self_grad(grad, x, ctx.result), x._data.shape) if a else None
        # PyTorch's zeros_like(other): other gets no gradient, only zeros of its shape
        return ga, new_tensor(np.zeros(ctx._other_sym_sizes, grad._data.dtype)) if b else None

    sample_inputs = classmethod(lambda cls, make, shape: _samples.binary(make, shape, 0.3, 2.0))


class CopysignScalar(Op):
    """out = |self| with the sign of the number other"""
    grad_fn_name, name, n_inputs = "CopysignBackward1", "copysign", 1
    saves = ("self", "result")
    rule = "grad * result / self (0 where self == 0)"
    float_only = True

    def forward(self, other):
        return np.asarray(np.copysign(self, self.dtype.type(other)))

    def backward(ctx, grad):
        return (_copysign_self_grad(grad, ctx.self, ctx.result),)

    @classmethod
    def sample_inputs(cls, make, shape):
        yield make(shape, 0.3, 2.0), -1.5
        yield make(shape, -2.0, -0.3), 2.0


def _extreme_grads(ctx, grad, self_wins) -> tuple:
    """fmax's and fmin's gradients: all of grad to self where it won (or other is nan), to
    other elsewhere; +0.0 filled in for the loser, as PyTorch's masked_fill gives."""
    a, b = ctx.needs_input_grad
    x, y = ctx.self, ctx.other
    won = self_wins | y.isnan()
    return (sum_to(grad.masked_fill(~won, 0), x._data.shape) if a else None,
            sum_to(grad.masked_fill(won, 0), y._data.shape) if b else None)


class Fmax(Op):
    """out = max(self, other), the number where one is nan"""
    grad_fn_name, name, n_inputs = "FmaxBackward0", "fmax", 2
    saves = ("other", "self")
    rule = "grad where self >= other or other is nan, the rest to other"

    def forward(self, other):
        return np.asarray(np.fmax(self, other))

    def backward(ctx, grad):
        return _extreme_grads(ctx, grad, ctx.self >= ctx.other)

    sample_inputs = classmethod(lambda cls, make, shape: _samples.binary_apart(make, shape))


class Fmin(Op):
    """out = min(self, other), the number where one is nan"""
    grad_fn_name, name, n_inputs = "FminBackward0", "fmin", 2
    saves = ("other", "self")
    rule = "grad where self <= other or other is nan, the rest to other"

    def forward(self, other):
        return np.asarray(np.fmin(self, other))

    def backward(ctx, grad):
        return _extreme_grads(ctx, grad, ctx.self <= ctx.other)

    sample_inputs = classmethod(lambda cls, make, shape: _samples.binary_apart(make, shape))


class Heaviside(Underivable):
    """out = 0 where self < 0, values where self == 0, 1 where self > 0 (no derivative)"""
    grad_fn_name, name, n_inputs = "NotImplemented", "heaviside", 2

    def forward(self, values):
        zero = self.dtype.type(0)
        return np.asarray(np.where(self == zero, values, self > zero).astype(self.dtype))

    def backward(ctx, grad):
        raise RuntimeError("derivative for aten::heaviside is not implemented")

    sample_inputs = classmethod(lambda cls, make, shape: _samples.binary(make, shape))


# ---- public entry points ------------------------------------------------------------------
def hypot(input, other) -> Tensor:
    """sqrt(input**2 + other**2), elementwise with broadcasting (`torch.hypot`).

    Example:
        >>> import gradstep.engine as torch
        >>> torch.hypot(torch.tensor([3.0, 5.0]), torch.tensor([4.0, 12.0])).tolist()
        [5.0, 13.0]
    """
    both_tensors("hypot", input, "other", other, Tensor)
    if input._data.dtype.kind not in "fc" and other._data.dtype.kind not in "fc":
        from ..dtypes import promote_types
        word = promote_types(input.dtype, other.dtype).legacy.replace("Tensor", "")
        raise NotImplementedError(f"\"hypot_cpu\" not implemented for '{word}'")
    return Hypot.apply(input, other)


def copysign(input, other, *, _method: bool = False) -> Tensor:
    """|input| with the sign of other, elementwise; other a tensor or a number
    (`torch.copysign`). Integer inputs give the default float.

    Example:
        >>> import gradstep.engine as torch
        >>> torch.copysign(torch.tensor([1.0, -2.0]), -1.0).tolist()
        [-1.0, -2.0]
    """
    if not isinstance(input, Tensor) or not isinstance(other, (Tensor, *_NUMBERS)):
        raise copysign_error("copysign", (input, other), _method)
    if isinstance(other, Tensor):
        return Copysign.apply(input, other)
    return CopysignScalar.apply(input, other)


def fmax(input, other) -> Tensor:
    """Elementwise maximum that ignores nan (`torch.fmax`): nan only where both are nan.

    Example:
        >>> import gradstep.engine as torch
        >>> torch.fmax(torch.tensor([1.0, float("nan")]), torch.tensor([0.0, 2.0])).tolist()
        [1.0, 2.0]
    """
    both_tensors("fmax", input, "other", other, Tensor)
    return Fmax.apply(input, other)


def fmin(input, other) -> Tensor:
    """Elementwise minimum that ignores nan (`torch.fmin`): nan only where both are nan.

    Example:
        >>> import gradstep.engine as torch
        >>> torch.fmin(torch.tensor([1.0, float("nan")]), torch.tensor([0.0, 2.0])).tolist()
        [0.0, 2.0]
    """
    both_tensors("fmin", input, "other", other, Tensor)
    return Fmin.apply(input, other)


def heaviside(input, values) -> Tensor:
    """The step function: 0 where input < 0, 1 where input > 0, and `values` where input is 0
    (`torch.heaviside`); both tensors of one dtype. It has no gradient.

    Example:
        >>> import gradstep.engine as torch
        >>> torch.heaviside(torch.tensor([-2.0, 0.0, 3.0]), torch.tensor([0.5])).tolist()
        [0.0, 0.5, 1.0]
    """
    both_tensors("heaviside", input, "values", values, Tensor)
    if input._data.dtype != values._data.dtype:
        raise RuntimeError("heaviside is not yet implemented for tensors with different dtypes.")
    return Heaviside.apply(input, values)


def _parser_error(fn: str, args: tuple, overloads: tuple, method: bool) -> TypeError:
    """PyTorch's parser error when no overload takes `args`: a function's lists its overloads;
    a method's (one argument) adds under each which argument did not match."""
    from ..messages import parser_type_name

    def detail(v) -> str:
        if isinstance(v, (list, tuple)):
            names = list(dict.fromkeys(parser_type_name(e) for e in v))
            return f"{parser_type_name(v)} of [{', '.join(names)}]"
        return parser_type_name(v)
    got = ", ".join(parser_type_name(a) for a in args)
    lines = ""
    for shape in overloads:
        lines += f" * ({shape})\n"
        if method:
            lines += ("      didn't match because some of the arguments have invalid types: "
                      f"(!{detail(args[0])}!)\n")
    return TypeError(f"{fn}() received an invalid combination of arguments - got ({got}), "
                     f"but expected one of:\n{lines}")


_METHOD_OVERLOADS = ("Tensor {}", "Number {}")


def _float_power_error(args: tuple, method: bool) -> TypeError:
    if method:
        return _parser_error("float_power", args,
                             tuple(o.format("exponent") for o in _METHOD_OVERLOADS), True)
    return _parser_error("float_power", args, (
        "Tensor input, Tensor exponent, *, Tensor out = None",
        "Number self, Tensor exponent, *, Tensor out = None",
        "Tensor input, Number exponent, *, Tensor out = None"), False)


def copysign_error(fn: str, args: tuple, method: bool) -> TypeError:
    """copysign's (or copysign_'s) parser error for an `other` that is no Tensor or number."""
    if method:
        return _parser_error(fn, args, tuple(o.format("other") for o in _METHOD_OVERLOADS),
                             True)
    return _parser_error(fn, args, ("Tensor input, Tensor other, *, Tensor out = None",
                                    "Tensor input, Number other, *, Tensor out = None"), False)


def float_power(input, exponent, *, _method: bool = False) -> Tensor:
    """input ** exponent computed in float64 whatever the inputs' dtypes (`torch.float_power`):
    pow on `input.double()` and `exponent.double()`, so the graph has their ToCopyBackward0.

    Example:
        >>> import gradstep.engine as torch
        >>> torch.float_power(torch.tensor([2, 3]), 2)
        tensor([4., 9.], dtype=torch.float64)
    """
    from ..dtypes import float64
    if isinstance(input, Tensor) and isinstance(exponent, Tensor):
        return _pow(input.to(float64), exponent.to(float64))
    if isinstance(input, Tensor) and isinstance(exponent, _NUMBERS):
        return _pow(input.to(float64), float(exponent))
    if isinstance(input, _NUMBERS) and isinstance(exponent, Tensor):
        return _pow(float(input), exponent.to(float64))
    raise _float_power_error((exponent,) if _method else (input, exponent), _method)
