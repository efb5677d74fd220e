"""The legacy tensor types: `torch.FloatTensor`, `torch.cuda.FloatTensor` and `Tensor.type`.

Tutorials from before PyTorch 0.4 pick a type once and convert with it:

    dtype = torch.cuda.FloatTensor if torch.cuda.is_available() else torch.FloatTensor
    x = torch.randn(64, 1000).type(dtype)
    y = labels.type(torch.LongTensor)

In PyTorch these are classes: calling one builds a tensor of its dtype, `isinstance(t,
torch.FloatTensor)` asks about `t`'s dtype, and the CUDA ones exist (so the line above runs on
a CPU build) but refuse to build anything. `Tensor.type(...)` takes such a class, a dtype or the
class's name as a string.
"""
from __future__ import annotations

import numpy as np

from . import dtypes
from ._names import TorchNamed
from .factories import _made, _size
from .tensor import Tensor, _legacy_keywords, _plain, new_tensor

# what a CPU build of PyTorch 2.13 says when asked to move a tensor to a CUDA type
NO_ATEN_CUDA = (
    "Cannot initialize CUDA without ATen_cuda library. PyTorch splits its backend into two "
    "shared libraries: a CPU library and a CUDA library; this error has occurred because you "
    "are trying to use some CUDA functionality, but the CUDA library has not been loaded by the "
    "dynamic linker for some reason.  The CUDA library MUST be loaded, EVEN IF you don't "
    "directly use any symbols from the CUDA library! One common culprit is a lack of "
    "-Wl,--no-as-needed in your link arguments; many dynamic linkers will delete dynamic "
    "library dependencies if you don't depend on any of their symbols.  You can check if this "
    "has occurred by using ldd on your binary to see if there is a dependency on *_cuda.so "
    "library.")


class LegacyType(TorchNamed):
    """Metaclass of the legacy types: calling one constructs, `isinstance` checks the dtype
    (a tensor's class is always Tensor, as in PyTorch)."""

    def __call__(cls, *args, **kwargs) -> Tensor:
        if cls.is_cuda:
            raise TypeError(f"type {cls._torch_name} not available. Torch not compiled with "
                            f"CUDA enabled.")
        if kwargs:
            _legacy_keywords(args, kwargs)
        np_type = cls.dtype.np
        if len(args) == 1 and not isinstance(args[0], (int, np.integer)):
            data = np.array(_plain(args[0]), dtype=np_type)     # FloatTensor([1, 2])
        else:
            data = np.zeros(_size(args), dtype=np_type)         # FloatTensor(2, 3)
        return _made(new_tensor(data), cls.__name__)

    def __instancecheck__(cls, obj) -> bool:
        return (not cls.is_cuda and isinstance(obj, Tensor)
                and obj._data.dtype == cls.dtype.np)


def _make(d: dtypes.dtype, cuda: bool) -> LegacyType:
    prefix = "torch.cuda." if cuda else "torch."
    return LegacyType(d.legacy, (), {
        "_torch_name": prefix + d.legacy, "dtype": d, "is_cuda": cuda, "__module__": prefix[:-1],
        "__doc__": f"Legacy constructor: {prefix}{d.legacy}(data) or (*sizes)."})


CPU = {d.legacy: _make(d, cuda=False) for d in dtypes.ALL}
CUDA = {d.legacy: _make(d, cuda=True) for d in dtypes.ALL}


def tensor_type(x: Tensor, dtype=None, non_blocking: bool = False):
    """`Tensor.type()`: the legacy type's name, or `x` converted to the type asked for."""
    from .ops.shape import to
    if dtype is None:
        return "torch." + x.dtype.legacy
    if isinstance(dtype, str):
        if dtype.startswith("torch.cuda."):
            raise RuntimeError(NO_ATEN_CUDA)
        target = _by_name(dtype)
        if target is None:
            raise ValueError(f"invalid type: {dtype!r}")
    elif isinstance(dtype, dtypes.dtype):
        target = dtype
    elif isinstance(dtype, LegacyType):
        if dtype.is_cuda:
            raise RuntimeError(NO_ATEN_CUDA)
        target = dtype.dtype
    elif dtype is Tensor:               # the default type, FloatTensor unless changed
        target = dtypes.get_default_dtype()
    elif isinstance(dtype, type):
        raise ValueError(f"invalid type: '{dtype.__name__}'")
    else:
        raise TypeError("dtype must be a type, str, or dtype object")
    return to(x, target)


def _by_name(name: str):
    if name == "torch.Tensor":
        return dtypes.get_default_dtype()
    cls = CPU.get(name[len("torch."):]) if name.startswith("torch.") else None
    return cls.dtype if cls is not None else None
