"""The one-pass layout of a tensor printed in full gives the row-by-row layout's text.

`printing._body` formats a float tensor that is not summarised with one string operation and
lays it out level by level (`_laid_out`); `_nested` is the general path, pinned against
PyTorch by the golden cases. These compare the two on tensors of every notation, rank,
width and wrapping.
"""
from __future__ import annotations

import numpy as np
import pytest

from gradstep.engine import printing as P


def _general(data: np.ndarray, opts: P.PrintOptions) -> str:
    fmt = P._Formatter(data, opts)
    return P._nested(data, len(P._PREFIX), False, fmt, opts)


def _arrays():
    rng = np.random.default_rng(7)
    shapes = [(1,), (5,), (13,), (40,), (1, 1), (3, 4), (16, 1), (1, 16), (16, 8), (2, 3, 4),
              (2, 1, 3, 2), (3, 30), (7, 11)]
    scales = [1.0, 1e-6, 1e5, 1e9, 3.0]
    for dtype in (np.float32, np.float64, np.float16):
        for shape in shapes:
            for scale in scales:
                base = rng.standard_normal(shape) * scale
                yield base.astype(dtype)
                yield np.round(base).astype(dtype)          # integral values
                spread = base * 10.0 ** rng.integers(-6, 6, size=shape)
                yield spread.astype(dtype)                  # scientific notation
                with_zeros = base.copy()
                with_zeros.flat[::3] = 0.0
                yield with_zeros.astype(dtype)
        special = rng.standard_normal((4, 5)).astype(dtype)
        special.flat[[1, 7, 12]] = [np.nan, np.inf, -np.inf]
        yield special
        yield np.round(special)                             # integral, with nan and inf
        yield np.array([-0.0, 0.0, 2.0], dtype=dtype)


@pytest.mark.parametrize("options", [{}, {"precision": 2}, {"linewidth": 40},
                                     {"sci_mode": True}, {"sci_mode": False},
                                     {"precision": 8, "linewidth": 120}])
def test_flat_layout_matches_rows(options):
    opts = P.options_with(**options)
    for data in _arrays():
        assert P._body(data, len(P._PREFIX), opts) == _general(data, opts), (data, options)


def test_nested_shapes_keep_blank_lines():
    data = np.arange(24, dtype=np.float32).reshape(2, 3, 4) / 7
    text = P.format_array(data, "float32")
    assert text.count("\n\n") == 1 and text.startswith("tensor([[[0.0000, 0.1429")
