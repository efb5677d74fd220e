"""Values encoded once (NOTE [values encoded once] in runner/trace_values.py): the numbers
`data` rounds and the JSON text it makes with them, and events encoded with each value's text
spliced in, are exactly what rounding number by number and runner.trace's encoder give."""
from __future__ import annotations

import copy

import numpy as np
import pytest

from gradstep.runner import trace as T
from gradstep.runner import trace_values as V


def _arrays():
    rng = np.random.default_rng(5)
    shapes = [(8,), (16,), (2, 4), (4, 4), (3, 2, 4), (1, 1, 8), (64,)]
    for dtype in (np.float32, np.float64):
        for shape in shapes:
            size = int(np.prod(shape))
            yield rng.standard_normal(size).reshape(shape).astype(dtype)
            yield np.round(rng.standard_normal(size) * 100).reshape(shape).astype(dtype)
            spread = rng.standard_normal(size) * 10.0 ** rng.integers(-7, 18, size)
            yield spread.reshape(shape).astype(dtype)             # exponents both ways
            edges = rng.choice([0.0, -0.0, 1.0, 0.0001, 99999.95, 999999.5, 9999995.0,
                                123456.5, 1e15, 1e16, 2.5e-5], size)
            yield edges.reshape(shape).astype(dtype)
    yield np.array([5e-324, 1.0] * 4)                           # a subnormal double
    yield np.array([4.07893435e-60, 1e-20, 3e-10, 1e-05] * 2)    # exponents that end in 0
    yield np.array([1.5e-05, 1e-06, 2.5e-09, 0.5] * 2, np.float32)
    yield np.array([1.7976931348623157e308, 1.0] * 4)           # rounds up past the range


@pytest.mark.parametrize("digits", [1, 2, 3, 6, 9, 15, 17])
def test_data_rounds_and_writes_as_the_encoder(digits):
    made = 0
    for arr in _arrays():
        data, text = V.data(arr.tobytes(), arr.shape, arr.dtype, digits)
        each = [float(f"{x:.{digits}g}") for x in arr.ravel().tolist()]
        assert np.array(data).ravel().tolist() == each
        assert np.array(data).shape == arr.shape
        if text is not None:
            made += 1
            assert text == T.dump_event(data), (arr, digits)
    assert digits > 15 or made >= 8   # the shortcut is taken where it holds


def test_data_of_small_non_finite_and_whole_values():
    f32 = np.dtype(np.float32)
    assert V.data(np.float32(2.5).tobytes(), (), f32, 6) == (2.5, None)
    data, text = V.data(np.array([np.nan, 1.0, np.inf, -np.inf] * 2, f32).tobytes(), (8,),
                        f32, 6)
    assert data == ["nan", 1.0, "inf", "-inf"] * 2 and text is None
    ints = np.arange(8, dtype=np.int64)
    assert V.data(ints.tobytes(), (2, 4), ints.dtype, 6) == ([[0, 1, 2, 3], [4, 5, 6, 7]], None)


def _value(arr, printed=None) -> tuple:
    data, text = V.data(arr.tobytes(), arr.shape, arr.dtype, 6)
    entry = [list(arr.shape), "torch.float32", data, printed, text, None, None, True]
    return entry


def test_encode_splices_each_value_and_leaves_the_event_whole():
    rng = np.random.default_rng(1)
    grad = _value(rng.standard_normal((4, 4)).astype(np.float32))
    after = _value(rng.standard_normal(8).astype(np.float32), "tensor([...])")
    g1 = {"shape": grad[0], "dtype": grad[1], "data": grad[2], "repr": None}
    g2 = {"shape": grad[0], "dtype": grad[1], "data": grad[2], "repr": None}
    a = {"shape": after[0], "dtype": after[1], "data": after[2], "repr": after[3]}
    a_plain = {"shape": after[0], "dtype": after[1], "data": after[2], "repr": None}
    event = {"kind": "optimizer_update", "grad": g1, "terms": [{"name": "d_p", "value": g2},
                                                              {"name": "same", "value": g1}],
             "after": a, "before": a_plain,
             "note": '{"data":"\u00000","dtype":"x","repr":null,"shape":[]}'}
    before = copy.deepcopy(event)
    values = [(g1, grad), (g2, grad), (a, after), (a_plain, after), (g1, grad)]
    for _ in range(2):   # the second time from the texts kept in the entries
        assert V.encode(event, values, T.dump_unnumbered) == T.dump_unnumbered(before)
        assert event == before and event["grad"] is g1
    assert grad[V.TEXT_PLAIN] is not None and after[V.TEXT_PRINTED] is not None


def test_encode_leaves_a_changed_value_to_the_encoder():
    entry = _value(np.arange(8, dtype=np.float32))
    d = {"shape": entry[0], "dtype": entry[1], "data": [0.5] * 8, "repr": None}
    grad = dict(d, data=entry[2], tensor="t3")     # a gradient that is a recorded tensor
    event = {"kind": "node_apply", "grads_in": [d, grad]}
    assert V.encode(event, [(d, entry), (grad, entry)], T.dump_event) == T.dump_event(event)


def test_point_texts_are_each_points_text():
    points = [[0, 2.5], [1, 1e-05], [2, "nan"], [3, 7]]
    assert V.point_texts(points) == [T.dump_event(p) for p in points]
    assert V.point_texts([]) == []
