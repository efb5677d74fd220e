"""Input samplers the ops declare for the gradient checks (tests/engine/test_gradcheck.py).

`make(shape, low, high)` is supplied by the test: it returns a float64 Tensor that requires
grad, with values drawn in [low, high]. The helpers here only decide shapes and domains.
"""
from __future__ import annotations

import numpy as np


def broadcast_partner(shape: tuple) -> list:
    """Shapes that broadcast against `shape`: itself, a suffix, and size-1 variants."""
    out = [shape]
    if shape:
        out.append(shape[1:])
        out.append(tuple(1 if i == 0 else n for i, n in enumerate(shape)))
    out.append(())
    return out


def unary(make, shape, low=-2.0, high=2.0):
    yield (make(shape, low, high),)


def binary(make, shape, low=-2.0, high=2.0):
    for other in broadcast_partner(shape):
        yield make(shape, low, high), make(other, low, high)
    yield make((), low, high), make(shape, low, high)


def binary_apart(make, shape, low=-2.0, high=2.0):
    """Like `binary`, with the two inputs on interleaved grids (0.1 apart from each other), so
    max/min never meet a tie, where finite differences would straddle the kink."""
    for a, b in binary(make, shape, low, high):
        a._data[...] = np.round(a._data, 1)
        b._data[...] = np.round(b._data, 1) + 0.05
        yield a, b
