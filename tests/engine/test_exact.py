"""engine/ops/_exact.py: the Python-float route for tiny float32 arrays gives the bits of the
float64-then-round numpy route it stands in for (NOTE [tiny tensors through Python floats]).

Every comparison is of the raw float32 bits, so -0.0 against 0.0, or one nan against another,
counts as a difference.
"""
from __future__ import annotations

import math

import numpy as np
import pytest

from gradstep.engine.ops import _exact
from gradstep.engine.ops._exact import F32, TINY, one_minus_square, via64

UFUNCS = (np.sin, np.cos, np.tanh)
_F32_MAX = float(np.finfo(np.float32).max)
_EDGES = np.array([0.0, -0.0, 1e-45, -1e-45, 1.1754942e-38, 1.1754944e-38, -1.1754944e-38,
                   1e-30, 1e-5, -1e-5, 0.5, 1.0, -1.0, math.pi, -math.pi / 2, 8.0, 10.0,
                   -10.0, 1e4, 1e20, -1e20, _F32_MAX, -_F32_MAX,
                   np.inf, -np.inf, np.nan, -np.nan], np.float32)


def bits(a):
    a = np.asarray(a)
    assert a.dtype == F32
    return a.view(np.uint32)


def reference(ufunc, x):
    """The numpy route: evaluate in float64, round once to float32."""
    return np.asarray(ufunc(x, dtype=np.float64)).astype(F32)


def tiny_reference(ufunc, x):
    """What the Python-float route should give: the numpy route's bits, except that tanh of
    a nan is that nan (sign and payload, made quiet), as PyTorch's tanh and the C library's
    give it; numpy's own float64 tanh returns its default +nan for every nan."""
    want = reference(ufunc, x)
    if ufunc is np.tanh:
        quiet = (x.view(np.uint32) | np.uint32(0x00400000)).view(F32)
        want = np.where(np.isnan(x), quiet, want)
    return want


def random_float32(rng, n):
    """Any float32 bit pattern (about 0.4% of them nan or inf) and plain normal values."""
    raw = rng.integers(0, 2**32, n, dtype=np.uint64).astype(np.uint32).view(np.float32)
    return np.concatenate([raw, (rng.standard_normal(n) * 3).astype(F32)])


def test_the_tiny_route_is_the_one_measured():
    # the tests below exercise the Python-float route only if the table names these ufuncs
    assert set(_exact._SAME_BITS_IN_MATH) == set(UFUNCS)
    assert TINY >= 3                     # a learner's 3-element tensor takes it


@pytest.mark.parametrize("ufunc", UFUNCS, ids=lambda u: u.__name__)
def test_math_functions_round_to_numpys_float32_bits(ufunc):
    # the property the table claims, element by element, over random bit patterns
    rng = np.random.default_rng(20261203)
    x = random_float32(rng, 100_000)
    x = x[np.isfinite(x)]
    fn = _exact._SAME_BITS_IN_MATH[ufunc]
    got = np.fromiter(map(fn, x.tolist()), F32, x.size)
    np.testing.assert_array_equal(bits(got), bits(reference(ufunc, x)))


@pytest.mark.parametrize("ufunc", UFUNCS, ids=lambda u: u.__name__)
def test_tiny_arrays_get_the_numpy_routes_bits(ufunc):
    rng = np.random.default_rng(3)
    run = via64(ufunc)
    pool = np.concatenate([_EDGES, random_float32(rng, 5_000)])
    for size in range(TINY + 3):          # past TINY too: the numpy route itself
        for _ in range(300):
            x = rng.choice(pool, size)
            got = run(x)
            assert got.shape == x.shape
            want = tiny_reference(ufunc, x) if size <= TINY else reference(ufunc, x)
            np.testing.assert_array_equal(bits(got), bits(want))


@pytest.mark.parametrize("ufunc", UFUNCS, ids=lambda u: u.__name__)
def test_every_edge_value_alone_and_together(ufunc):
    run = via64(ufunc)
    for v in _EDGES:
        x = np.array([v], F32)
        np.testing.assert_array_equal(bits(run(x)), bits(tiny_reference(ufunc, x)),
                                      err_msg=str(v))
    for i in range(0, _EDGES.size, TINY):     # an infinity beside finite values
        x = _EDGES[i:i + TINY]
        np.testing.assert_array_equal(bits(run(x)), bits(tiny_reference(ufunc, x)))


@pytest.mark.parametrize("ufunc", UFUNCS, ids=lambda u: u.__name__)
def test_a_nan_keeps_its_sign_on_the_tiny_route(ufunc):
    # PyTorch: tanh(-nan) and sin(-nan) are -nan (torch.signbit says True); the numpy route
    # gives that for sin and cos, which call the C library, but +nan for tanh
    x = np.array([0x7FC00000, 0xFFC00000, 0xFFC12345], np.uint32).view(F32)
    np.testing.assert_array_equal(bits(via64(ufunc)(x)), bits(x))
    assert bits(reference(np.tanh, x)).tolist() == [0x7FC00000] * 3    # why tiny_reference


@pytest.mark.parametrize("shape", [(), (1, 1), (2, 3), (3, 1), (1, 0)])
@pytest.mark.parametrize("ufunc", UFUNCS, ids=lambda u: u.__name__)
def test_other_shapes_keep_shape_and_bits(ufunc, shape):
    x = np.random.default_rng(5).standard_normal(shape).astype(F32)
    got = np.asarray(via64(ufunc)(x))            # 0-d: a numpy scalar, as before
    assert got.shape == shape and got.dtype == F32
    np.testing.assert_array_equal(bits(got), bits(reference(ufunc, x)))


@pytest.mark.parametrize("ufunc", UFUNCS, ids=lambda u: u.__name__)
def test_strided_and_foreign_inputs(ufunc):
    base = np.linspace(-4, 4, 2 * TINY, dtype=F32)
    x = base[::2]                                # a non-contiguous view
    np.testing.assert_array_equal(bits(via64(ufunc)(x)), bits(reference(ufunc, x)))
    big_endian = base[:3].astype(">f4")          # not F32: numpy's float32 kernel
    np.testing.assert_array_equal(via64(ufunc)(big_endian), ufunc(big_endian))
    f64 = base[:3].astype(np.float64)            # float64 tensors are not rounded
    np.testing.assert_array_equal(via64(ufunc)(f64), ufunc(f64))


@pytest.mark.parametrize("ufunc", UFUNCS, ids=lambda u: u.__name__)
def test_results_are_fresh_writable_arrays(ufunc):
    # callers multiply into the result (sin's backward: grad * cos(self) into cos's array)
    x = np.array([0.1, 0.2, 0.3], F32)
    out = via64(ufunc)(x)
    assert out.flags.writeable and out.flags.c_contiguous
    assert not np.shares_memory(out, x)
    out[:] = 7
    assert x.tolist() == np.array([0.1, 0.2, 0.3], F32).tolist()


def test_one_minus_square_is_rounded_once_for_tiny_arrays():
    rng = np.random.default_rng(11)
    pool = np.concatenate([_EDGES, random_float32(rng, 5_000),
                           rng.uniform(-1, 1, 5_000).astype(F32)])
    for size in range(TINY + 3):
        for _ in range(300):
            y = rng.choice(pool, size)
            y64 = y.astype(np.float64)
            want = (1.0 - y64 * y64).astype(F32)      # one float32 rounding
            got = one_minus_square(y)
            assert got.shape == y.shape and not np.shares_memory(got, y)
            np.testing.assert_array_equal(bits(got), bits(want))


def test_one_minus_square_differs_from_float32_arithmetic_where_it_should():
    # guards the test above: values where rounding twice (float32 y*y, then 1 - it) differs
    y = np.random.default_rng(2).uniform(-1, 1, 20_000).astype(F32)
    twice = np.float32(1) - y * y
    once = np.concatenate([one_minus_square(y[i:i + 4]) for i in range(0, y.size, 4)])
    assert np.count_nonzero(bits(twice) != bits(once)) > 0
    np.testing.assert_array_equal(
        bits(once), bits((1.0 - y.astype(np.float64) ** 2).astype(F32)))


@pytest.mark.parametrize("shape", [(), (2, 2), (TINY + 1,)])
def test_one_minus_square_other_shapes(shape):
    y = np.random.default_rng(9).uniform(-1, 1, shape).astype(F32)
    got = one_minus_square(y)
    assert isinstance(got, np.ndarray) and got.shape == shape
    y64 = y.astype(np.float64)
    np.testing.assert_array_equal(bits(got), bits((1.0 - y64 * y64).astype(F32)))
