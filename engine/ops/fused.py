"""Pointwise ops PyTorch runs as one fused kernel: addcmul, addcdiv, lerp and logaddexp.
PyTorch counterparts: `torch.addcmul`, `torch.addcdiv`, `torch.lerp` (a number weight is
LerpBackward0, a tensor weight LerpBackward1), `torch.logaddexp`. Inputs broadcast; every
backward reduces through `sum_to`. PyTorch's kernels round addcmul's and lerp's last product
and sum once (a fused multiply-add); for small float32 arrays so does the engine (see NOTE
[float32 transcendentals] in `_exact.py`), which gives every bit of PyTorch's results.
"""

from __future__ import annotations

import numpy as np

from ..tensor import Tensor
from . import _samples
from ._broadcast import sum_to
from ._exact import F32, SMALL, fma32, via64
from ._op import Op
from .arithmetic import MulScalar
_INT_ADDCDIV = (
    "Integer division with addcdiv is no longer supported, and in a future  release addcdiv "
    "will perform a true division of tensor1 and tensor2. The historic addcdiv behavior can "
    "be implemented as (input + value * torch.trunc(tensor1 / tensor2)).to(input.dtype) for "
    "integer inputs and as (input + value * tensor1 / tensor2) for float inputs. The future "
    "addcdiv behavior is just the latter implementation: (input + value * tensor1 / tensor2), "
    "for all dtypes.")


def _small32(*arrays) -> bool:
    return all(a.dtype == F32 and a.size <= SMALL for a in arrays)


def _broadcast_error(arrays, params, error: ValueError) -> Exception:
    """PyTorch's message for three inputs that do not broadcast: each one against the shape
    of those before it."""
    from ..messages import size_mismatch
    shape = arrays[0].shape
    for a in arrays[1:]:
        msg = size_mismatch(shape, a.shape)
        if msg:
            return RuntimeError(msg)
        shape = np.broadcast_shapes(shape, a.shape)
    return RuntimeError(str(error))


def _three(make, shape, low=-2.0, high=2.0):
    """Three inputs, the last two broadcasting against the first."""
    for other in _samples.broadcast_partner(shape):
        yield make(shape, low, high), make(other, low, high), make(shape, low, high)


class Addcmul(Op):
    """out = self + value * tensor1 * tensor2"""
    grad_fn_name, name, n_inputs = "AddcmulBackward0", "addcmul", 3
    saves = ("tensor1", "tensor2", "value", "_self_sym_sizes")
    rule = "grad, grad * tensor2 * value, grad * tensor1 * value"
    forward_error = staticmethod(_broadcast_error)

    def forward(self, tensor1, tensor2, value=1):
        if _small32(self, tensor1, tensor2):     # fma(value * tensor1, tensor2, self)
            return np.asarray(fma32(tensor1 * np.float32(value), tensor2, self))
        return np.asarray(self + value * tensor1 * tensor2)

    def backward(ctx, grad):
        a, b, c = ctx.needs_input_grad
        t1, t2, v = ctx.tensor1, ctx.tensor2, ctx.value
        return (sum_to(grad, ctx._self_sym_sizes) if a else None,
                sum_to(grad * MulScalar.apply(t2, v), t1._data.shape) if b else None,
                sum_to(grad * MulScalar.apply(t1, v), t2._data.shape) if c else None)

    @classmethod
    def sample_inputs(cls, make, shape):
        for a, b, c in _three(make, shape):
            yield a, b, c, 0.5


class Addcdiv(Op):
    """out = self + value * tensor1 / tensor2"""
    grad_fn_name, name, n_inputs = "AddcdivBackward0", "addcdiv", 3
    saves = ("tensor1", "tensor2", "value", "_self_sym_sizes")
    rule = "grad, grad * value / tensor2, -grad * value * tensor1 / tensor2**2"
    forward_error = staticmethod(_broadcast_error)

    def forward(self, tensor1, tensor2, value=1):
        return np.asarray(self + value * tensor1 / tensor2)

    def backward(ctx, grad):
        from ..factories import full_like
        a, b, c = ctx.needs_input_grad
        t1, t2, v = ctx.tensor1, ctx.tensor2, ctx.value
        return (sum_to(grad, ctx._self_sym_sizes) if a else None,
                sum_to(grad * (full_like(t2, v) / t2), t1._data.shape) if b else None,
                sum_to(-grad * (MulScalar.apply(t1, v) / (t2 * t2)), t2._data.shape)
                if c else None)

    @classmethod
    def sample_inputs(cls, make, shape):
        for a, b, c in _three(make, shape):
            c._data[...] = np.abs(c._data) + 0.5      # keep the divisor away from 0
            yield a, b, c, 2.0


def _lerp(self, end, weight):
    """PyTorch's lerp: from `self` while the weight is small, from `end` otherwise (so that
    weight 1 gives `end` exactly)."""
    diff = end - self
    small = np.abs(weight) < 0.5
    if _small32(self, end, weight):      # one fused multiply-add each way, as PyTorch's
        return np.asarray(np.where(small, fma32(weight, diff, self),
                                   fma32(weight - np.float32(1), diff, end)))
    return np.asarray(np.where(small, self + weight * diff, end - diff * (1 - weight)))


class LerpScalar(Op):
    """out = self + weight * (end - self), weight a number"""
    grad_fn_name, name, n_inputs = "LerpBackward0", "lerp", 2
    saves = ("weight", "_self_sym_sizes", "_end_sym_sizes")
    rule = "grad * (1 - weight), grad * weight"

    def forward(self, end, weight):
        return _lerp(self, end, np.asarray(weight, dtype=np.result_type(self, end)))

    def backward(ctx, grad):
        a, b = ctx.needs_input_grad
        w = ctx.weight
        return (sum_to(MulScalar.apply(grad, 1 - w), ctx._self_sym_sizes) if a else None,
                sum_to(MulScalar.apply(grad, w), ctx._end_sym_sizes) if b else None)

    @classmethod
    def sample_inputs(cls, make, shape):
        for a, b in _samples.binary(make, shape):
            yield a, b, 0.25
            yield a, b, 0.75


class LerpTensor(Op):
    """out = self + weight * (end - self), weight a tensor"""
    grad_fn_name, name, n_inputs = "LerpBackward1", "lerp", 3
    saves = ("end", "self", "weight")
    rule = "grad * (1 - weight), grad * weight, grad * (end - self)"
    forward_error = staticmethod(_broadcast_error)

    def forward(self, end, weight):
        return _lerp(self, end, weight)

    def backward(ctx, grad):
        a, b, c = ctx.needs_input_grad
        x, y, w = ctx.self, ctx.end, ctx.weight
        return (sum_to(grad * (1 - w), x._data.shape) if a else None,
                sum_to(grad * w, y._data.shape) if b else None,
                sum_to(grad * (y - x), w._data.shape) if c else None)

    @classmethod
    def sample_inputs(cls, make, shape):
        yield from _three(make, shape, -1.0, 1.0)


class Logaddexp(Op):
    """out = log(exp(self) + exp(other))"""
    grad_fn_name, name, n_inputs = "LogaddexpBackward0", "logaddexp", 2
    saves = ("other", "self")
    rule = "grad / (1 + exp(other - self)), grad / (1 + exp(self - other))"

    def forward(self, other):
        m = np.maximum(self, other)
        out = m + via64(np.log1p)(via64(np.exp)(-np.abs(self - other)))
        both_inf = np.isinf(self) & (self == other)     # inf - inf would give nan
        return np.asarray(np.where(both_inf, self, out))

    def backward(ctx, grad):
        a, b = ctx.needs_input_grad
        x, y = ctx.self, ctx.other
        return (sum_to(grad / ((y - x).exp() + 1), x._data.shape) if a else None,
                sum_to(grad / ((x - y).exp() + 1), y._data.shape) if b else None)

    sample_inputs = classmethod(lambda cls, make, shape: _samples.binary(make, shape))


# ---- public entry points ------------------------------------------------------------------
def _float_kernel(kernel: str, *tensors) -> None:
    for t in tensors:
        if t._data.dtype.kind not in "fc":
            raise NotImplementedError(f'"{kernel}" not implemented for '
                                      f"'{t.dtype.legacy.replace('Tensor', '')}'")


def addcmul(input, tensor1, tensor2, *, value=1) -> Tensor:
    """input + value * tensor1 * tensor2, broadcasting (`torch.addcmul`).
    Example:
        >>> import gradstep.engine as torch
        >>> torch.addcmul(torch.ones(2), torch.tensor([1., 2.]), torch.tensor([3., 4.]),
        ...               value=2).tolist()
        [7.0, 17.0]
    """
    return Addcmul.apply(input, tensor1, tensor2, value)


def addcdiv_check(tensor1, tensor2) -> None:
    """PyTorch's refusal of integer division in addcdiv (and Tensor.addcdiv_)."""
    if tensor1._data.dtype.kind in "biu" and tensor2._data.dtype.kind in "biu":
        raise RuntimeError(_INT_ADDCDIV)


def addcdiv(input, tensor1, tensor2, *, value=1) -> Tensor:
    """input + value * tensor1 / tensor2, broadcasting (`torch.addcdiv`); not for integers."""
    addcdiv_check(tensor1, tensor2)
    return Addcdiv.apply(input, tensor1, tensor2, value)


def lerp_op(input, end, weight) -> type:
    """LerpTensor for a tensor weight, LerpScalar for a number (also Tensor.lerp_'s choice),
    after PyTorch's checks: one dtype for all three tensors, then a float kernel."""
    from .linalg import c_type
    for name, t in (("end", end), ("weight", weight)):
        if isinstance(t, Tensor) and t._data.dtype != input._data.dtype:
            raise RuntimeError(f"expected dtype {c_type(input._data)} for `{name}` but got "
                               f"dtype {c_type(t._data)}")
    if isinstance(weight, Tensor):
        _float_kernel("lerp_kernel_tensor", input)
        return LerpTensor
    _float_kernel("lerp_kernel_scalar", input)
    return LerpScalar


def lerp(input, end, weight) -> Tensor:
    """input + weight * (end - input); weight a number or a tensor (`torch.lerp`)."""
    return lerp_op(input, end, weight).apply(input, end, weight)


def logaddexp(input, other) -> Tensor:
    """log(exp(input) + exp(other)) without overflow (`torch.logaddexp`)."""
    _float_kernel("logaddexp_cpu", input)
    return Logaddexp.apply(input, other)
