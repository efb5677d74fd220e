"""Division with rounding and its remainders: div(rounding_mode=...), //, %, remainder, fmod.

PyTorch counterparts: `torch.div(a, b, rounding_mode=...)` (DivBackward2, whose rounded modes
have a zero gradient), `torch.remainder` (RemainderBackward0/1), `torch.fmod`
(FmodBackward0/1), and `torch.floor_divide` / `//` and a number `%` a tensor, for which PyTorch
defines no derivative: they record a NotImplemented node that raises when differentiated.
"""
from __future__ import annotations

import numpy as np

from ..tensor import Tensor, new_tensor
from ._broadcast import sum_to
from ._op import Op, Underivable, _default_float, _promote, scalar

ROUNDING_MODES = (None, "trunc", "floor")


def _pair(a, b) -> tuple:
    # (arithmetic._pair; importing it from there would be a cycle through inplace.py)
    if not isinstance(a, Tensor):
        a = scalar(a, b)
    if not isinstance(b, Tensor):
        b = scalar(b, a)
    return a, b


def _zeros(sizes: tuple, like: Tensor) -> Tensor:
    # a constant, as PyTorch's grad.new_zeros: not part of any graph, even under create_graph
    return new_tensor(np.zeros(sizes, like._data.dtype))


def _with_number(a: np.ndarray, number) -> tuple:
    """`a` and a Python number in the dtype they promote to (a float number makes an integer
    tensor the default float; otherwise the tensor's dtype wins)."""
    if a.dtype.kind == "b" or (a.dtype.kind in "iu" and isinstance(number, float)):
        a = a.astype(_default_float() if isinstance(number, float) else np.int64)
    return a, a.dtype.type(number)


def _nonzero_int_divisor(a: np.ndarray, b) -> None:
    """PyTorch's integer kernels refuse a zero divisor (floats give inf or nan instead)."""
    if a.dtype.kind in "iu" and np.any(np.asarray(b) == 0):
        raise RuntimeError("ZeroDivisionError")


def _remainder(a: np.ndarray, b) -> np.ndarray:
    """a - floor(a / b) * b: numpy's for integers; for floats PyTorch's fmod corrected toward
    b's sign, which keeps fmod's +0.0 where numpy's remainder gives b's signed zero."""
    if a.dtype.kind != "f":
        _nonzero_int_divisor(a, b)
        return np.remainder(a, b)
    mod = np.fmod(a, b)
    return np.where((mod != 0) & ((b < 0) != (mod < 0)), mod + b, mod)


class DivMode(Op):
    """out = self / other, then rounded toward -inf ("floor") or 0 ("trunc"), or not (None)"""
    grad_fn_name, n_inputs, name = "DivBackward2", 2, "div"
    saves = ("other", "rounding_mode", "self", "_self_sym_sizes")
    save_when = {"self": 1}
    rule = "zeros when rounded (a step function); else grad / other, -grad * self / other**2"

    def forward(self, other, rounding_mode):
        if rounding_mode is None:
            if self.dtype.kind != "f":     # true division of integers gives the default float
                self, other = self.astype(_default_float()), other.astype(_default_float())
            return self / other
        _nonzero_int_divisor(self, other)
        if rounding_mode == "floor":       # numpy's floor division is Python's, as PyTorch's
            return np.floor_divide(self, other)
        return np.trunc(self / other).astype(self.dtype, copy=False)

    def backward(ctx, grad):
        a, b = ctx.needs_input_grad
        y = ctx.other
        if ctx.rounding_mode is not None:
            return (_zeros(ctx._self_sym_sizes, grad) if a else None,
                    _zeros(y._data.shape, grad) if b else None)
        return (sum_to(grad / y, ctx._self_sym_sizes) if a else None,     # Div's order
                sum_to(-grad * (ctx.self / y / y), y._data.shape) if b else None)

    @classmethod
    def sample_inputs(cls, make, shape):
        for mode in ROUNDING_MODES:
            yield make(shape), make(shape, 0.5, 2.0), mode


class Remainder(Op):
    """out = self - floor(self / other) * other, other a number"""
    grad_fn_name, n_inputs, name, rule = "RemainderBackward0", 1, "remainder", "grad"

    def forward(self, other):
        return _remainder(*_with_number(self, other))

    def backward(ctx, grad):
        return (grad,)

    @classmethod
    def sample_inputs(cls, make, shape):
        yield make(shape), 1.5


class RemainderTensor(Op):
    """out = self - floor(self / other) * other (the sign of other's)"""
    grad_fn_name, n_inputs, name = "RemainderBackward1", 2, "remainder"
    saves = ("other", "self", "_self_sym_sizes")
    save_when = {"other": 1, "self": 1}
    rule = "grad, -grad * floor(self / other)"

    def forward(self, other):
        return _remainder(self, other)

    def backward(ctx, grad):
        a, b = ctx.needs_input_grad
        return (sum_to(grad, ctx._self_sym_sizes) if a else None,
                sum_to(-grad * DivMode.apply(ctx.self, ctx.other, "floor"),
                       ctx.other._data.shape) if b else None)

    @classmethod
    def sample_inputs(cls, make, shape):
        yield make(shape), make(shape, 0.5, 2.0)


class Fmod(Op):
    """out = self - trunc(self / other) * other, other a number"""
    grad_fn_name, n_inputs, name, rule = "FmodBackward0", 1, "fmod", "grad"

    def forward(self, other):
        self, other = _with_number(self, other)
        _nonzero_int_divisor(self, other)
        return np.fmod(self, other)

    def backward(ctx, grad):
        return (grad,)

    @classmethod
    def sample_inputs(cls, make, shape):
        yield make(shape), 1.5


class FmodTensor(Op):
    """out = self - trunc(self / other) * other (the sign of self's)"""
    grad_fn_name, n_inputs, name = "FmodBackward1", 2, "fmod"
    saves = ("other", "self", "_self_sym_sizes")
    save_when = {"other": 1, "self": 1}
    rule = "grad, -grad * trunc(self / other)"

    def forward(self, other):
        _nonzero_int_divisor(self, other)
        return np.fmod(self, other)

    def backward(ctx, grad):
        a, b = ctx.needs_input_grad
        return (sum_to(grad, ctx._self_sym_sizes) if a else None,
                sum_to(-grad * DivMode.apply(ctx.self, ctx.other, "trunc"),
                       ctx.other._data.shape) if b else None)

    @classmethod
    def sample_inputs(cls, make, shape):
        yield make(shape), make(shape, 0.5, 2.0)


class _Underivable(Underivable):
    """floor_divide's and remainder's underivable forms: two inputs in PyTorch's promotion."""
    n_inputs = 2

    @classmethod
    def arrays(cls, inputs: tuple) -> list:
        a, b = inputs
        return list(_promote((a, b), [a._data, b._data]))  # PyTorch's promotion, not numpy's

    @classmethod
    def sample_inputs(cls, make, shape):
        yield make(shape), make(shape, 0.5, 2.0)


class FloorDivide(_Underivable):
    """out = floor(self / other)"""
    grad_fn_name, name = "NotImplemented", "floor_divide"

    def forward(self, other):
        if self.dtype == np.bool_:
            raise NotImplementedError("\"div_floor_cpu\" not implemented for 'Bool'")
        _nonzero_int_divisor(self, other)
        return np.floor_divide(self, other)

    def backward(ctx, grad):
        raise RuntimeError("derivative for aten::floor_divide is not implemented")


class FloorDivideInPlace(FloorDivide):
    """self = floor(self / other) (`//=`; PyTorch's error names the in-place op)"""
    name = "floor_divide_"

    def backward(ctx, grad):
        raise RuntimeError("derivative for aten::floor_divide_ is not implemented")


class RemainderOfNumber(_Underivable):
    """out = self - floor(self / other) * other, self a number (remainder.Scalar_Tensor)"""
    grad_fn_name, name = "NotImplemented", "remainder"

    def forward(self, other):
        return _remainder(self, other)

    def backward(ctx, grad):
        raise RuntimeError("derivative for aten::remainder is not implemented")


# ---- public entry points ------------------------------------------------------------------
def div_rounded(input, other, rounding_mode) -> Tensor:
    """`torch.div` with a rounding_mode argument: always DivBackward2, even for None."""
    if rounding_mode not in ROUNDING_MODES:
        raise RuntimeError(f"div expected rounding_mode to be one of None, 'trunc', or "
                           f"'floor' but found '{rounding_mode}'")
    return DivMode.apply(*_pair(input, other), rounding_mode)


def floor_divide(input, other) -> Tensor:
    """floor(input / other) (`torch.floor_divide`, `//`); not differentiable, as PyTorch's.

    Example:
        >>> import gradstep.engine as torch
        >>> torch.floor_divide(torch.tensor([5., -5.]), 2)
        tensor([ 2., -3.])
    """
    return FloorDivide.apply(*_pair(input, other))


def remainder(input, other) -> Tensor:
    """input modulo other with the sign of other (`torch.remainder`, `%`).

    Example:
        >>> import gradstep.engine as torch
        >>> torch.remainder(torch.tensor([5., -5.]), 3)
        tensor([2., 1.])
    """
    if not isinstance(input, Tensor):
        return RemainderOfNumber.apply(*_pair(input, other))
    if not isinstance(other, Tensor):
        return Remainder.apply(input, other)
    return RemainderTensor.apply(input, other)


def fmod(input, other) -> Tensor:
    """input modulo other with the sign of input (`torch.fmod`).

    Example:
        >>> import gradstep.engine as torch
        >>> torch.fmod(torch.tensor([5., -5.]), 3)
        tensor([ 2., -2.])
    """
    if not isinstance(other, Tensor):
        return Fmod.apply(input, other)
    return FmodTensor.apply(input, other)


# ---- in place: `//=`, `%=` and the trailing-underscore methods ----------------------------
def div_(t: Tensor, other, rounding_mode) -> Tensor:
    """`t.div_(other, rounding_mode=...)`: DivBackward2 in place, as out of place."""
    from .inplace import apply_inplace
    if rounding_mode not in ROUNDING_MODES:
        raise RuntimeError(f"div expected rounding_mode to be one of None, 'trunc', or "
                           f"'floor' but found '{rounding_mode}'")
    return apply_inplace(DivMode, "div_", t, scalar(other, t), rounding_mode)


def floor_divide_(t: Tensor, other) -> Tensor:
    """`t //= other` / `t.floor_divide_(other)`: written into t (same object, new version)."""
    from .inplace import apply_inplace
    return apply_inplace(FloorDivideInPlace, "floor_divide_", t, scalar(other, t))


def remainder_(t: Tensor, other) -> Tensor:
    """`t %= other` / `t.remainder_(other)`: written into t (same object, new version)."""
    from .inplace import apply_inplace
    if isinstance(other, Tensor):
        return apply_inplace(RemainderTensor, "remainder_", t, other)
    return apply_inplace(Remainder, "remainder_", t, other)


def fmod_(t: Tensor, other) -> Tensor:
    """`t.fmod_(other)`: written into t."""
    from .inplace import apply_inplace
    if isinstance(other, Tensor):
        return apply_inplace(FmodTensor, "fmod_", t, other)
    return apply_inplace(Fmod, "fmod_", t, other)
