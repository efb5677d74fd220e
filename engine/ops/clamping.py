"""Bounds: clamp (number or tensor bounds), clamp_min, clamp_max, maximum and minimum.

PyTorch counterparts: `torch.clamp`/`clip` (ClampBackward1 for number bounds, ClampBackward0
for tensor bounds, which pass gradients to the bounds too), `torch.clamp_min`,
`torch.clamp_max`, `torch.maximum`, `torch.minimum`. Moved out of `elementwise.py`, which they
had grown past its size budget.
"""
from __future__ import annotations

import numpy as np

from ..tensor import Tensor, new_tensor
from . import _samples
from ._broadcast import sum_to
from .. import _events
from ..foreign_operands import both_tensors
from ..grad_mode import state as _grad_state
from ._op import Op
from .._dual import tangents as _tangents
from ._tangents import has_tangent, push
from .elementwise import _num, _zero, where


class Clamp(Op):
    """out = min(max(self, min), max)"""
    grad_fn_name, name = "ClampBackward1", "clamp"
    saves = ("max", "min", "self")
    rule = "grad where min <= self <= max, else 0"

    def forward(self, min, max):  # PyTorch's argument names
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
    def apply(cls, self, min=None, max=None):
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
        if _tangents and has_tangent(inputs):       # forward mode (_tangents.py)
            push(cls, inputs, inputs, result)
        if _events.listener is not None and not _grad_state.quiet:
            _events.listener.on_op(cls.name, tuple(present), result, node)
        return result

    def forward(self, min, max):
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

    def forward(self, min):  # PyTorch's argument name
        return np.maximum(self, min).astype(self.dtype, copy=False)

    def backward(ctx, grad):
        return (where(ctx.self >= ctx.min, grad, _zero(grad)),)

    sample_inputs = classmethod(lambda cls, make, shape: iter([(make(shape), 0.25)]))


class ClampMinTensor(Op):
    """out = max(self, min), min a tensor"""
    grad_fn_name, n_inputs, name = "ClampMinBackward1", 2, "clamp_min"
    saves = ("min", "self")
    rule = "grad where self >= min, the rest to min"

    def forward(self, min):
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

    def forward(self, max):
        return np.minimum(self, max).astype(self.dtype, copy=False)

    def backward(ctx, grad):
        return (where(ctx.self <= ctx.max, grad, _zero(grad)),)

    sample_inputs = classmethod(lambda cls, make, shape: iter([(make(shape), 0.25)]))


class ClampMaxTensor(Op):
    """out = min(self, max), max a tensor"""
    grad_fn_name, n_inputs, name = "ClampMaxBackward1", 2, "clamp_max"
    saves = ("max", "self")
    rule = "grad where self <= max, the rest to max"

    def forward(self, max):
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


# ---- public entry points ------------------------------------------------------------------
def clamp(input, min=None, max=None, *, _name="clamp", _method=False) -> Tensor:
    """Limit values to [min, max] (`torch.clamp`); either bound may be None, and the bounds are
    both numbers (ClampBackward1) or both tensors (ClampBackward0, gradients to the bounds)."""
    if min is None and max is None:
        raise RuntimeError("torch.clamp: At least one of 'min' or 'max' must not be None")
    if input._data.dtype.kind == "c":
        raise NotImplementedError("clamp is not supported for complex types")
    bounds = [v for v in (min, max) if v is not None]
    tensors = [v for v in bounds if isinstance(v, Tensor)]
    if tensors and len(tensors) == len(bounds):
        return ClampTensor.apply(input, min, max)
    # a tensor beside a number: PyTorch's argument parser takes a 0-d tensor that needs no
    # grad as a Number; any other tensor matches neither overload
    if any(t.ndim or t.requires_grad for t in tensors):
        raise TypeError(_clamp_args_error(_name, _method, min, max))
    return Clamp.apply(input, _num(min), _num(max))


def clamp_(input, min=None, max=None, *, _name="clamp_", _method=False) -> Tensor:
    """`clamp` in place (`Tensor.clamp_`, `torch.clamp_`): number bounds record ClampBackward1,
    tensor bounds ClampBackward0, which sends gradients to the bounds too."""
    from .inplace import apply_inplace
    if min is None and max is None:
        raise RuntimeError("torch.clamp: At least one of 'min' or 'max' must not be None")
    if input._data.dtype.kind == "c":
        raise NotImplementedError("clamp is not supported for complex types")
    bounds = [v for v in (min, max) if v is not None]
    tensors = [v for v in bounds if isinstance(v, Tensor)]
    if tensors and len(tensors) == len(bounds):
        return apply_inplace(ClampTensor, "clamp_", input, min, max)
    if any(t.ndim or t.requires_grad for t in tensors):   # as clamp: one overload or the other
        raise TypeError(_clamp_args_error(_name, _method, min, max))
    return apply_inplace(Clamp, "clamp_", input, _num(min), _num(max))


def _clamp_args_error(name: str, method: bool, min, max) -> str:
    got = [type(v).__name__ for v in (min, max) if v is not None]
    if method:
        marked = ", ".join(f"!{g}!" for g in got)
        why = f"      didn't match because some of the arguments have invalid types: ({marked})\n"
        return (f"{name}() received an invalid combination of arguments - got "
                f"({', '.join(got)}), but expected one of:\n"
                f" * (Tensor min = None, Tensor max = None)\n{why}"
                f" * (Number min = None, Number max = None)\n{why}")
    if name.endswith("_"):      # torch.clamp_: no out=, and the input is listed as matching
        marked = ", ".join(f"!{g}!" for g in got)
        why = ("      didn't match because some of the arguments have invalid types: "
               f"(Tensor, {marked})\n")
        return (f"{name}() received an invalid combination of arguments - got "
                f"(Tensor, {', '.join(got)}), but expected one of:\n"
                f" * (Tensor input, Tensor min = None, Tensor max = None)\n{why}"
                f" * (Tensor input, Number min = None, Number max = None)\n{why}")
    return (f"{name}() received an invalid combination of arguments - got "
            f"(Tensor, {', '.join(got)}), but expected one of:\n"
            " * (Tensor input, Tensor min = None, Tensor max = None, *, Tensor out = None)\n"
            " * (Tensor input, Number min = None, Number max = None, *, Tensor out = None)\n")


def clip(input, min=None, max=None) -> Tensor:
    """An alias of `clamp` (`torch.clip`)."""
    return clamp(input, min, max, _name="clip")


def clip_(input, min=None, max=None) -> Tensor:
    """An alias of `clamp_` (`torch.clip_`)."""
    return clamp_(input, min, max, _name="clip_")


def clamp_min(input, min) -> Tensor:
    """max(input, min) elementwise (`torch.clamp_min`); min a number or a tensor."""
    if isinstance(min, Tensor):
        return ClampMinTensor.apply(input, min)
    return ClampMin.apply(input, min)


def clamp_max(input, max) -> Tensor:
    """min(input, max) elementwise (`torch.clamp_max`); max a number or a tensor."""
    if isinstance(max, Tensor):
        return ClampMaxTensor.apply(input, max)
    return ClampMax.apply(input, max)


def maximum(input, other) -> Tensor:
    both_tensors("maximum", input, "other", other, Tensor)
    return Maximum.apply(input, other)


def minimum(input, other) -> Tensor:
    both_tensors("minimum", input, "other", other, Tensor)
    return Minimum.apply(input, other)
