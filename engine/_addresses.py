"""What `Tensor.data_ptr()` returns: a number per storage, never a memory address.

PyTorch's `data_ptr()` is the address of a tensor's first element, and learners compare them
to see that a view shares its base's memory (`x[1:].data_ptr() - x.data_ptr() == 4`). Those
comparisons hold here too: each storage (the numpy array at the root of a view chain) gets a
number the first time one of its tensors is asked, in order, and a tensor's number is its
storage's plus its byte offset into it. A real address would aim raw-memory reads and writes
in a sandboxed program, and would make output differ from run to run.

Example:
    >>> import numpy as np
    >>> a = np.zeros(4, dtype=np.float32)
    >>> address_of(a[1:]) - address_of(a)
    4
"""
from __future__ import annotations

import weakref

import numpy as np

_FIRST = 0x5000_0000_0000       # looks like an address on a 64-bit system, starts aligned
_ALIGN = 0x1000

_numbers: dict = {}             # id(root array) -> (weak reference to it, its number)
_next = [_FIRST]


def _root(array: np.ndarray) -> np.ndarray:
    root = array
    while isinstance(root.base, np.ndarray):
        root = root.base
    return root


def _start(array: np.ndarray) -> int:
    return array.__array_interface__["data"][0]


def address_of(array: np.ndarray) -> int:
    """The per-process number standing for the address of `array`'s first element."""
    root = _root(array)
    key = id(root)
    known = _numbers.get(key)
    if known is None or known[0]() is not root:
        number = _next[0]
        _next[0] += (root.nbytes // _ALIGN + 2) * _ALIGN      # room for every offset, a gap
        _numbers[key] = known = (weakref.ref(root, lambda _, k=key: _numbers.pop(k, None)),
                                 number)
    return known[1] + (_start(array) - _start(root))
