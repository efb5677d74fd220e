"""Tensor element types and PyTorch's type-promotion rules (`torch.float32`, `torch.result_type`).

A `dtype` wraps a numpy dtype and prints as PyTorch does (`torch.float32`). Promotion follows
PyTorch, not numpy: categories bool < integer < floating; a dimensioned tensor outranks a 0-d
tensor, which outranks a Python number, unless the lower-ranked operand is of a higher category.
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
        self.category = category          # 0 bool, 1 integer, 2 floating
        self.is_floating_point = category == 2
        self.is_complex = False
        self.is_signed = category == 2 or self.np.kind == "i"
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

half, float, double = float16, float32, float64
short, int, long = int16, int32, int64

ALL = (float16, float32, float64, uint8, int8, int16, int32, int64, bool)
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
    raise TypeError(f"can't convert np.ndarray of type numpy.{npdt.name}. The only supported "
                    "types are: float64, float32, float16, complex64, complex128, int64, int32, "
                    "int16, int8, uint8, and bool.")


def promote_types(a: dtype, b: dtype) -> dtype:
    """PyTorch's `torch.promote_types`: the higher category wins; within one, the wider."""
    if a is b:
        return a
    if a.category != b.category:
        return a if a.category > b.category else b
    return FROM_NP[np.promote_types(a.np, b.np)]


def scalar_dtype(value) -> dtype:
    """The dtype a Python number gets on its own: bool, int64, or the default float."""
    if isinstance(value, (_py_bool, np.bool_)):
        return bool
    if isinstance(value, (_py_int, np.integer)):
        return int64
    return _default[0]


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
        if res is None or g.category > res.category:
            res = g
    for s in scalars:
        d = scalar_dtype(s)
        if res is None:
            res = d
        elif d.category > res.category:
            res = _default[0] if d.category == 2 else d
    return res
