"""Tensor element types and PyTorch's type-promotion rules (`torch.float32`, `torch.result_type`).

A `dtype` wraps a numpy dtype and prints as PyTorch does (`torch.float32`). Promotion follows
PyTorch, not numpy: categories bool < integer < floating < complex; a dimensioned tensor
outranks a 0-d tensor, which outranks a Python number, unless the lower-ranked operand is of a
higher category (a complex one then keeps the width of a floating higher one: float64 * 1j is
complex128).
"""
from __future__ import annotations

from builtins import bool as _py_bool, int as _py_int  # before this module shadows them

import numpy as np

from ._names import TorchNamed


class dtype(metaclass=TorchNamed):
    """A tensor element type, e.g. ``torch.float32``.

    Example:
        >>> float32, float32.is_floating_point, float32.itemsize
        (torch.float32, True, 4)
    """

    _torch_name = "torch.dtype"
    __slots__ = ("name", "np", "is_floating_point", "is_complex", "is_signed", "itemsize",
                 "legacy", "category")

    def __init__(self, name: str, np_type, legacy: str, category: int) -> None:
        self.name = name
        self.np = np.dtype(np_type)
        self.category = category          # 0 bool, 1 integer, 2 floating, 3 complex
        self.is_floating_point = category == 2
        self.is_complex = category == 3
        self.is_signed = category >= 2 or self.np.kind == "i"
        self.itemsize = self.np.itemsize
        self.legacy = legacy              # name used in messages: torch.FloatTensor

    def __repr__(self) -> str:
        return "torch." + self.name

    def __reduce__(self):
        return self.name


float16 = dtype("float16", np.float16, "HalfTensor", 2)
float32 = dtype("float32", np.float32, "FloatTensor", 2)
float64 = dtype("float64", np.float64, "DoubleTensor", 2)
uint8 = dtype("uint8", np.uint8, "ByteTensor", 1)
int8 = dtype("int8", np.int8, "CharTensor", 1)
int16 = dtype("int16", np.int16, "ShortTensor", 1)
int32 = dtype("int32", np.int32, "IntTensor", 1)
int64 = dtype("int64", np.int64, "LongTensor", 1)
bool = dtype("bool", np.bool_, "BoolTensor", 0)  # PyTorch's name
complex64 = dtype("complex64", np.complex64, "ComplexFloatTensor", 3)
complex128 = dtype("complex128", np.complex128, "ComplexDoubleTensor", 3)

half, float, double = float16, float32, float64
short, int, long = int16, int32, int64
cfloat, cdouble = complex64, complex128

ALL = (float16, float32, float64, uint8, int8, int16, int32, int64, bool, complex64, complex128)
# the real dtype of a complex one's parts, and the complex dtype whose parts are a real one
TO_REAL = {complex64: float32, complex128: float64}
TO_COMPLEX = {float16: complex64, float32: complex64, float64: complex128}
FROM_NP = {d.np: d for d in ALL}

_default = [float32]


def get_default_dtype() -> dtype:
    """The dtype of Python floats turned into tensors (float32 unless changed)."""
    return _default[0]


def set_default_dtype(d: dtype) -> None:
    """Make `d` (float32 or float64) the dtype for new floating tensors."""
    if d not in (float32, float64, float16):
        raise TypeError("only floating-point types are supported as the default type")
    _default[0] = d


def default_complex() -> dtype:
    """The dtype of Python complex numbers turned into tensors: complex64, or complex128 when
    the default float dtype is float64."""
    return complex128 if _default[0] is float64 else complex64


def of_array(a: np.ndarray) -> dtype:
    """The engine dtype of a numpy array; numpy types PyTorch lacks map to the nearest."""
    try:
        return FROM_NP[a.dtype]
    except KeyError:
        return _nearest(a.dtype)


def _nearest(npdt) -> dtype:
    if npdt.kind == "f":
        return float64
    if npdt.kind in "iu":
        return int64
    if npdt.kind == "b":
        return bool
    if npdt.kind == "c":
        return complex128
    raise TypeError(f"can't convert np.ndarray of type numpy.{npdt.name}. The only supported "
                    "types are: float64, float32, float16, complex64, complex128, int64, int32, "
                    "int16, int8, uint8, and bool.")


def promote_types(a: dtype, b: dtype) -> dtype:
    """PyTorch's `torch.promote_types`: the higher category wins; within one, the wider."""
    if a is b:
        return a
    if a.category != b.category:
        hi, lo = (a, b) if a.category > b.category else (b, a)
        # complex over floating keeps the wider parts: float64 with complex64 is complex128
        return _combine(lo, hi) if (hi.category, lo.category) == (3, 2) else hi
    return FROM_NP[np.promote_types(a.np, b.np)]


def scalar_dtype(value) -> dtype:
    """The dtype a Python number gets on its own: bool, int64, the default float or complex."""
    if isinstance(value, (_py_bool, np.bool_)):
        return bool
    if isinstance(value, (_py_int, np.integer)):
        return int64
    if isinstance(value, (complex, np.complexfloating)):
        return default_complex()
    return _default[0]


def _combine(higher: dtype, lower: dtype) -> dtype:
    """PyTorch's rule when a lower-priority operand is of a higher category: a complex one
    keeps a floating result's width (float64 with a complex 0-d tensor gives complex128)."""
    if lower.category <= higher.category:
        return higher
    if lower.category == 3 and higher.category == 2:
        return TO_COMPLEX[higher]
    return lower


def result_type(dims: list, zero_dims: list, scalars: list) -> dtype:
    """Promote operands by priority: dimensioned tensors, then 0-d tensors, then numbers.

    Each list holds dtypes (scalars: Python values). A lower-priority group only matters when
    its category is higher than the result so far.

    Example:
        >>> result_type([int64], [], [2.5]), result_type([float32], [float64], [])
        (torch.float32, torch.float32)
    """
    res = None
    for group in (dims, zero_dims):
        if not group:
            continue
        g = group[0]
        for d in group[1:]:
            g = promote_types(g, d)
        res = g if res is None else _combine(res, g)
    for s in scalars:
        d = scalar_dtype(s)
        res = d if res is None else _combine(res, d)
    return res
