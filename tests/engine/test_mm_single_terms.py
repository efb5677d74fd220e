"""Within `single_terms()`, a product with one nonzero term per entry is numpy's, and every
other product keeps PyTorch's order: the numbers are the same either way.

The recorder runs a node's backward on one-hot gradients for the chain rule's local numbers
(runner/recorder_chain.py) inside `single_terms()`, and keeps only the nonzero entries.
"""
from __future__ import annotations

import numpy as np

from gradstep.engine.ops._mm_order import _Terms, matmul2d, single_terms


def _same(x: np.ndarray, y: np.ndarray) -> bool:
    # + 0.0 makes -0.0 plain zero: a zero entry's sign is what single_terms may change
    return x.dtype == y.dtype and np.array_equal(x + 0.0, y + 0.0, equal_nan=True)


def _one_hot(shape: tuple, at: int) -> np.ndarray:
    out = np.zeros(int(np.prod(shape)), dtype=np.float32)
    out[at] = 1.0
    return out.reshape(shape)


def test_one_hot_products_give_the_ordered_numbers():
    rng = np.random.default_rng(3)
    for m, k, n in [(16, 1, 8), (1, 16, 8), (16, 8, 4), (8, 16, 1), (4, 4, 4)]:
        dense_b = rng.standard_normal((k, n)).astype(np.float32)
        dense_a = rng.standard_normal((m, k)).astype(np.float32)
        for at in range(0, m * k, 3):
            a = _one_hot((m, k), at)
            with single_terms():
                fast = matmul2d(a, dense_b)
            assert _same(fast, matmul2d(a, dense_b))
        for at in range(0, k * n, 3):
            b = _one_hot((k, n), at)
            with single_terms():
                fast = matmul2d(dense_a, b)
            assert _same(fast, matmul2d(dense_a, b))


def test_other_products_keep_pytorchs_order_bit_for_bit():
    rng = np.random.default_rng(4)
    a = rng.standard_normal((16, 24)).astype(np.float32)
    b = rng.standard_normal((24, 8)).astype(np.float32)
    with single_terms():
        inside = matmul2d(a, b)
    outside = matmul2d(a, b)
    assert inside.tobytes() == outside.tobytes()
    # and a one-hot product with an inf in the other factor, where 0 * inf is nan
    b[3, 2] = np.inf
    one_hot = _one_hot((16, 24), 5)
    with single_terms():
        inside = matmul2d(one_hot, b)
    assert _same(inside, matmul2d(one_hot, b)) and np.isnan(inside[0, 2])


def test_single_terms_ends_with_its_block():
    with single_terms():
        assert _Terms.single is True
    assert _Terms.single is False
