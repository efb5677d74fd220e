"""`torch.Size`: a tensor's shape, a tuple that prints as ``torch.Size([2, 3])``.

The devices (`torch.device`) are in device.py.
"""
from __future__ import annotations

import numpy as np

from ._names import TorchNamed


class Size(tuple, metaclass=TorchNamed):
    """A tensor's shape: a tuple that prints as ``torch.Size([2, 3])``."""

    _torch_name = "torch.Size"

    def __repr__(self) -> str:
        return f"torch.Size({list(self)})"

    def numel(self) -> int:
        return int(np.prod(self)) if self else 1

    # slicing and concatenating a shape give a shape, as PyTorch's (learners print s[1:])
    def __getitem__(self, key):
        item = tuple.__getitem__(self, key)
        return Size(item) if isinstance(key, slice) else item

    def __add__(self, other):
        return Size(tuple.__add__(self, other))

    def __radd__(self, other):
        return Size(other + tuple(self)) if isinstance(other, tuple) else NotImplemented

    def __mul__(self, n):
        return Size(tuple.__mul__(self, n))

    __rmul__ = __mul__
