"""`torch.finfo` and `torch.iinfo`: the numeric limits of a floating point or integer dtype.

`torch.finfo(torch.float32).eps` is how tutorials keep a normalisation from dividing by zero;
the attributes and the printed form follow PyTorch's (numbers in `%g` form, six digits).

Example:
    >>> import gradstep.engine as torch
    >>> torch.finfo(torch.float32).eps
    1.1920928955078125e-07
    >>> torch.iinfo(torch.int8)
    iinfo(min=-128, max=127, dtype=int8)
"""
from __future__ import annotations

import numpy as np

from . import dtypes
from ._names import TorchNamed


def _checked(type, fn: str, want: str, other: str) -> dtypes.dtype:
    if not isinstance(type, dtypes.dtype):
        raise TypeError(f"{fn}(): argument 'type' (position 1) must be torch.dtype, not "
                        f"{builtin_type(type).__name__}")
    if (want == "floating point") != type.is_floating_point:
        raise TypeError(f"torch.{fn}() requires {'an' if want == 'integer' else 'a'} {want} "
                        f"input type. Use torch.{other} to handle 'torch.{fn}'")
    return type


builtin_type = type


class _TypeInfo(metaclass=TorchNamed):
    """What finfo and iinfo share: two are equal when they are of one class and one dtype
    (`torch.finfo() == torch.finfo(torch.float32)`), and, as in PyTorch, neither can be
    hashed (so neither keys a dict); the error names the class as PyTorch's C type does."""

    dtype: str
    _torch_name: str

    def __eq__(self, other) -> bool:
        return type(other) is type(self) and self.dtype == other.dtype

    def __hash__(self) -> int:
        raise TypeError(f"unhashable type: {self._torch_name!r}")


class finfo(_TypeInfo):
    """Limits of a floating point dtype (the default dtype when none is given)."""

    _torch_name = "torch.finfo"

    def __init__(self, type=None) -> None:
        if type is None:
            type = dtypes.get_default_dtype()
        info = np.finfo(_checked(type, "finfo", "floating point", "iinfo").np)
        self.bits = int(info.bits)
        self.eps = float(info.eps)
        self.max = float(info.max)
        self.min = float(info.min)
        self.tiny = self.smallest_normal = float(info.smallest_normal)
        self.resolution = 10.0 ** -int(info.precision)   # numpy rounds it to the dtype
        self.dtype = type.name

    def __repr__(self) -> str:
        return (f"finfo(resolution={self.resolution:g}, min={self.min:g}, max={self.max:g}, "
                f"eps={self.eps:g}, smallest_normal={self.smallest_normal:g}, "
                f"tiny={self.tiny:g}, dtype={self.dtype})")


class iinfo(_TypeInfo):
    """Limits of an integer dtype."""

    _torch_name = "torch.iinfo"

    def __init__(self, type) -> None:
        if type is dtypes.bool:
            raise TypeError("torch.bool is not supported by torch.iinfo")
        info = np.iinfo(_checked(type, "iinfo", "integer", "finfo").np)
        self.bits = int(info.bits)
        self.max = int(info.max)
        self.min = int(info.min)
        self.dtype = type.name

    def __repr__(self) -> str:
        return f"iinfo(min={self.min:g}, max={self.max:g}, dtype={self.dtype})"
