"""engine.printing against texts real PyTorch 2.13 printed, plus properties of the layout.

The expected strings were printed by PyTorch for the same values; `format_array` is pure, so
these tests need no Tensor. `tests/golden/` covers the same ground end to end.
"""
import math
import re
from types import SimpleNamespace

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from hypothesis.extra import numpy as hnp

from gradstep.engine import printing
from gradstep.engine.printing import format_array

F32, F64 = np.float32, np.float64
nan, inf = math.nan, math.inf


@pytest.fixture(autouse=True)
def default_options():
    printing.set_printoptions(profile="default")
    yield
    printing.set_printoptions(profile="default")


def a(values, dtype=F32, shape=None):
    arr = np.array(values, dtype=dtype)
    return arr.reshape(shape) if shape is not None else arr


# (array, dtype name, PyTorch's repr)
PYTORCH_TEXTS = [
    (a(7.5), "float32", "tensor(7.5000)"),
    (a(1024.0), "float32", "tensor(1024.)"),
    (a([1024.0, 2.0]), "float32", "tensor([1024.,    2.])"),
    (a([0.1, 1.0, 1e-4]), "float32", "tensor([1.0000e-01, 1.0000e+00, 1.0000e-04])"),
    (a([1e8, 1.0]), "float32", "tensor([1.0000e+08, 1.0000e+00])"),
    (a([1e9]), "float32", "tensor([1.0000e+09])"),
    (a([1.5, 1500.0]), "float32", "tensor([   1.5000, 1500.0000])"),
    (a([1.5, 1501.0]), "float32", "tensor([1.5000e+00, 1.5010e+03])"),
    (a([nan, 1.0]), "float32", "tensor([nan, 1.])"),
    (a([inf, -inf, 2.5]), "float32", "tensor([   inf,   -inf, 2.5000])"),
    (a([-0.0, 0.5]), "float32", "tensor([-0.0000, 0.5000])"),
    (a([-0.0]), "float32", "tensor([-0.])"),
    (a([0.0, 0.0]), "float32", "tensor([0., 0.])"),
    (a([nan]), "float32", "tensor([nan])"),
    (a([1, -20, 300], np.int64), "int64", "tensor([  1, -20, 300])"),
    (a([True, False], np.bool_), "bool", "tensor([ True, False])"),
    (a(True, np.bool_), "bool", "tensor(True)"),
    (a([1, 2], np.int32), "int32", "tensor([1, 2], dtype=torch.int32)"),
    (a([1.5], F64), "float64", "tensor([1.5000], dtype=torch.float64)"),
    (a([[123456.789, 1.0]], F64), "float64",
     "tensor([[1.2346e+05, 1.0000e+00]], dtype=torch.float64)"),
    (a([]), "float32", "tensor([])"),
    (np.zeros((2, 0), F32), "float32", "tensor([], size=(2, 0))"),
    (np.zeros(0, np.int64), "int64", "tensor([], dtype=torch.int64)"),
    (np.arange(1001, dtype=F32), "float32",
     "tensor([   0.,    1.,    2.,  ...,  998.,  999., 1000.])"),
    (np.arange(12, dtype=F32).reshape(2, 2, 3), "float32",
     "tensor([[[ 0.,  1.,  2.],\n         [ 3.,  4.,  5.]],\n\n"
     "        [[ 6.,  7.,  8.],\n         [ 9., 10., 11.]]])"),
    (np.arange(16, dtype=F32).reshape(2, 2, 2, 2), "float32",
     "tensor([[[[ 0.,  1.],\n          [ 2.,  3.]],\n\n"
     "         [[ 4.,  5.],\n          [ 6.,  7.]]],"
     "\n\n\n        [[[ 8.,  9.],\n          [10., 11.]],\n\n         [[12., 13.],\n"
     "          [14., 15.]]]])"),
    (np.arange(3000).reshape(3, 1000), "int64",
     "tensor([[   0,    1,    2,  ...,  997,  998,  999],\n"
     "        [1000, 1001, 1002,  ..., 1997, 1998, 1999],\n"
     "        [2000, 2001, 2002,  ..., 2997, 2998, 2999]])"),
    (np.arange(20, dtype=F32) / F32(7), "float32",
     "tensor([0.0000, 0.1429, 0.2857, 0.4286, 0.5714, 0.7143, 0.8571, 1.0000, 1.1429,\n"
     "        1.2857, 1.4286, 1.5714, 1.7143, 1.8571, 2.0000, 2.1429, 2.2857, 2.4286,\n"
     "        2.5714, 2.7143])"),
]


@pytest.mark.parametrize("data, dtype, expected", PYTORCH_TEXTS,
                         ids=[t[2][:40] for t in PYTORCH_TEXTS])
def test_matches_pytorch_text(data, dtype, expected):
    assert format_array(data, dtype) == expected
    assert format_array(data, "torch." + dtype) == expected


def test_wrapped_matrix_rows_continue_under_the_first_element():
    data = np.arange(100, dtype=F32).reshape(10, 10) * F32(1.5)
    lines = format_array(data, "float32").split("\n")
    assert lines[0] == ("tensor([[  0.0000,   1.5000,   3.0000,   4.5000,   6.0000,   7.5000,"
                        "   9.0000,")
    assert lines[1] == "          10.5000,  12.0000,  13.5000],"
    assert lines[13] == "         100.5000, 102.0000, 103.5000],"
    assert len(lines) == 20


def test_suffixes_requires_grad_and_grad_fn_are_exclusive():
    x = a([1.0, 2.0])
    assert format_array(x, "float32", requires_grad=True) == "tensor([1., 2.], requires_grad=True)"
    both = format_array(x, "float32", requires_grad=True, grad_fn_name="MulBackward0")
    assert both == "tensor([1., 2.], grad_fn=<MulBackward0>)"
    assert (format_array(a([1e-5, 1.0]), "float32", requires_grad=True)
            == "tensor([1.0000e-05, 1.0000e+00], requires_grad=True)")
    assert (format_array(a(2.0, F64), "float64", grad_fn_name="SumBackward0")
            == "tensor(2., dtype=torch.float64, grad_fn=<SumBackward0>)")


def test_suffix_moves_to_its_own_line_past_linewidth():
    # seven 9-wide columns fill 70 characters; the suffix no longer fits after them
    data = np.full(7, 1.5, F32) * F32(100)
    text = format_array(data, "float32", grad_fn_name="MulBackward0")
    assert text == ("tensor([150., 150., 150., 150., 150., 150., 150.], "
                    "grad_fn=<MulBackward0>)")
    long = format_array(np.arange(9, dtype=F32) + F32(0.5), "float32",
                        grad_fn_name="MulBackward0")
    assert long == ("tensor([0.5000, 1.5000, 2.5000, 3.5000, 4.5000, 5.5000, 6.5000, 7.5000, "
                    "8.5000],\n       grad_fn=<MulBackward0>)")


def test_default_dtype_decides_which_float_shows_its_dtype():
    assert format_array(a([1.5], F64), "float64", default_dtype="float64") == "tensor([1.5000])"
    assert (format_array(a([1.5]), "float32", default_dtype="torch.float64")
            == "tensor([1.5000], dtype=torch.float32)")


def test_set_printoptions_precision_threshold_edgeitems_linewidth():
    printing.set_printoptions(precision=2)
    assert format_array(a([1.12345]), "float32") == "tensor([1.12])"
    printing.set_printoptions(threshold=5)
    assert get_precision() == 2   # options accumulate until a profile resets them
    assert (format_array(np.arange(10), "int64")
            == "tensor([0, 1, 2,  ..., 7, 8, 9])")
    printing.set_printoptions(profile="default")
    assert format_array(np.arange(10), "int64") == "tensor([0, 1, 2, 3, 4, 5, 6, 7, 8, 9])"
    printing.set_printoptions(threshold=3, edgeitems=0)
    assert format_array(np.arange(10), "int64") == "tensor([...], size=(10,))"
    printing.set_printoptions(profile="default", linewidth=30)
    assert (format_array(np.arange(12), "int64")
            == "tensor([ 0,  1,  2,  3,  4,\n         5,  6,  7,  8,  9,\n        10, 11])")


def get_precision():
    return printing.get_printoptions()["precision"]


def test_sci_mode_forced_and_reset_by_the_next_call():
    printing.set_printoptions(sci_mode=True)
    assert format_array(a([1.0, 2.0]), "float32") == "tensor([1.0000e+00, 2.0000e+00])"
    printing.set_printoptions(precision=3)  # sci_mode left out: automatic again
    assert format_array(a([1.0, 2.0]), "float32") == "tensor([1., 2.])"
    printing.set_printoptions(sci_mode=False)
    assert format_array(a([1e-6, 1.0]), "float32") == "tensor([0.000, 1.000])"


def test_profiles_and_get_printoptions_round_trip():
    printing.set_printoptions(profile="short")
    assert printing.get_printoptions() == {"precision": 2, "threshold": 1000, "edgeitems": 2,
                                           "linewidth": 80, "sci_mode": None}
    printing.set_printoptions(profile="full")
    assert printing.get_printoptions()["threshold"] == math.inf
    assert "..." not in format_array(np.arange(5000), "int64")
    with printing.printoptions(precision=1):
        assert format_array(a([0.25]), "float32") == "tensor([0.2])"
    assert printing.get_printoptions()["precision"] == 4


def test_summarised_3d_shows_edges_of_every_axis():
    text = format_array(np.arange(8 * 8 * 20).reshape(8, 8, 20), "int64")
    blocks = text.split("\n\n")
    assert blocks[3].strip() == "...,"
    assert len(blocks) == 7          # three blocks, the ellipsis, three blocks
    first_row = text.split("\n")[0]
    assert first_row == "tensor([[[   0,    1,    2,  ...,   17,   18,   19],"


def test_tensor_repr_reads_the_tensor_attributes():
    node = type("PowBackward0", (), {})()
    t = SimpleNamespace(_data=a([2.0, 8.0]), dtype="torch.float32", requires_grad=True,
                        grad_fn=node, is_leaf=False)
    assert printing.tensor_repr(t) == "tensor([2., 8.], grad_fn=<PowBackward0>)"
    leaf = SimpleNamespace(_data=a([2.0]), dtype="torch.float32", requires_grad=True,
                           grad_fn=None, is_leaf=True)
    assert printing.tensor_str(leaf) == "tensor([2.], requires_grad=True)"


# ---- properties ---------------------------------------------------------------------------

finite32 = st.floats(-1e6, 1e6, width=32, allow_nan=False)


@settings(max_examples=60, deadline=None)
@given(hnp.arrays(F32, hnp.array_shapes(min_dims=1, max_dims=3, max_side=6), elements=finite32))
def test_every_printed_number_is_the_value_rounded(arr):
    text = format_array(arr, "float32")
    body = text[len("tensor("):-1]
    numbers = re.findall(r"-?\d+\.\d*(?:e[-+]\d+)?", body)
    assert len(numbers) == arr.size
    for shown, value in zip(numbers, arr.ravel().tolist()):
        tolerance = 0.5e-4 * (abs(value) if "e" in shown else 1) + 1e-12
        assert abs(float(shown) - value) <= tolerance * 1.0001 or (
            "e" not in shown and shown.endswith(".") and float(shown) == value)


@settings(max_examples=60, deadline=None)
@given(hnp.arrays(np.int64, st.integers(1, 60), elements=st.integers(-10**6, 10**6)))
def test_columns_share_one_width(arr):
    printing.set_printoptions(linewidth=10**6)   # one line, so cells are split by ", " only
    cells = format_array(arr, "int64")[len("tensor(["):-2].split(", ")
    assert len({len(c) for c in cells}) == 1
    assert [int(c) for c in cells] == arr.tolist()


@settings(max_examples=30, deadline=None)
@given(st.integers(1, 2500))
def test_summarises_exactly_past_the_threshold(n):
    text = format_array(np.arange(n), "int64")
    assert ("..." in text) == (n > 1000)


def test_structseq_repr_puts_each_field_on_its_own_line():
    values = format_array(a([2.0]), "float32")
    text = printing.structseq_repr("max", {"values": _Raw(values), "indices": _Raw("tensor([1])")})
    assert text == "torch.return_types.max(\nvalues=tensor([2.]),\nindices=tensor([1]))"


class _Raw(str):
    def __repr__(self):
        return str(self)


def test_engine_tensors_print_through_this_module():
    import gradstep.engine as torch

    x = torch.tensor([1.0, 2.0], requires_grad=True)
    y = x * 2
    assert repr(y) == str(y) == "tensor([2., 4.], grad_fn=<MulBackward0>)"
    assert repr(x) == "tensor([1., 2.], requires_grad=True)"
    torch.set_printoptions(precision=2)
    assert repr(torch.tensor([1 / 3])) == "tensor([0.33])"
    assert printing.get_printoptions()["precision"] == 2
