"""A value's rounded `data` with its JSON text, and events encoded with each value's text once.

`runner/trace_build.py`'s Builder renders each distinct snapshot once (`data` here) and
encodes every event to size it (NOTE [events encoded once] in runner/trace.py); `encode`
does the latter without encoding the same value again and again.

NOTE [values encoded once]
A loop's trace holds the same value many times: a gradient is a node's output, the next
node's input, what an accumulation added and the optimizer's `grad`; a parameter's `after`
is the next step's `before`. Values (`data` and `repr`) are most of the trace's bytes, and
writing the shortest form of each rounded float (what the JSON encoder does, number by
number) was most of the time spent encoding. So `data` makes the JSON text of the numbers
together with the numbers, from the one string that rounds them; the Builder keeps the text
of each distinct value dict in its cache entry; and `encode` encodes an event with each of its
values replaced for the moment by a marker, `{"data":"\\u0000<k>",...,"repr":null,...}`, then
puts the k-th value's text where the marker's object is. The event dicts stay whole: the
markers are set and taken back around the one call to the encoder.

The markers cannot be forged by what a program prints: in canonical JSON the text
`{"data":` opens an object whose first key is "data" (a quote inside a string is escaped),
only values have that key, and their data is a list, a number, null or a name of a
non-finite number, never a string starting with U+0000.
"""
from __future__ import annotations

import json
import math
import re
from collections.abc import Callable
from typing import Literal

import numpy as np

from . import trace as T
from .trace_numbers import num

# The slots of a Builder cache entry: [shape, dtype name, data, printed form (or a marker
# that it is not made yet), data's JSON text or None until it is made, the value's text with
# repr null, its text with the printed form, whether the value is worth encoding once].
DATA_TEXT, TEXT_PLAIN, TEXT_PRINTED, SPLICED = 4, 5, 6, 7

# numpy dtypes (native byte order) whose bytes memoryview reads as the same Python floats
_NATIVE_FLOATS: dict[np.dtype, Literal["f", "d"]] = {np.dtype(np.float32): "f",
                                                      np.dtype(np.float64): "d"}


def data(raw: bytes, shape: tuple, npdtype, digits: int) -> tuple:
    """(the rounded contents of a snapshot's bytes as nested lists, a number for 0-d, or
    None for complex; for a value of SPLICE_MIN numbers or more, their canonical JSON text
    where it comes with them, else None).

        >>> f32 = np.dtype(np.float32)
        >>> numbers = np.array([1.0, 0.25, 1234.5678, -0.0] * 2, f32)
        >>> values, text = data(numbers.tobytes(), (2, 4), f32, 6)
        >>> values[0], text
        ([1.0, 0.25, 1234.57, -0.0], '[[1.0,0.25,1234.57,-0.0],[1.0,0.25,1234.57,-0.0]]')
        >>> data(np.array([2.5e-7, 1e-5] * 4, f32).tobytes(), (8,), f32, 6)[1][:22]
        '[2.5e-07,1e-05,2.5e-07'
        >>> data(np.array([2.5e-7, 1e6] * 4, f32).tobytes(), (8,), f32, 6)[1] is None
        True
    """
    code = _NATIVE_FLOATS.get(npdtype)
    if code is not None:  # the common case: read the floats without making an array
        flat = memoryview(raw).cast(code).tolist()
    else:
        arr = np.frombuffer(raw, dtype=npdtype).reshape(shape)
        if npdtype.kind in "biu":
            return arr.tolist(), None
        if npdtype.kind != "f":
            return None, None  # complex and others: repr only
        flat = arr.ravel().tolist()
    if not flat or not all(map(math.isfinite, flat)):  # maps of builtins: no call per number
        return _nest([num(x, digits) for x in flat], shape), None
    if len(flat) < SPLICE_MIN or not 1 <= digits <= _MOST_DIGITS:
        # a value the encoder writes anyway (too small to be worth marking, or digits the
        # shortcut below does not hold for): round each number on its own, which is cheaper
        fmt = _ROUNDERS.get(digits) or _ROUNDERS.setdefault(digits, f"{{:.{digits}g}}".format)
        return _nest(list(map(float, map(fmt, flat))), shape), None
    # One string rounds every number, in the nested lists' brackets (a 0-d value's in one
    # pair, taken off at the end): "%#.6g" keeps the point and the trailing zeros of each
    # number, which repr drops but for one after the point.
    text = _template(shape, digits) % tuple(flat)
    if "e" in text:
        # An exponent (below 1e-4, from 10**digits on) is written as repr does it, without
        # the mantissa's trailing zeros ("1.50000e-05" -> "1.5e-05", "1.00000e-05" ->
        # "1e-05"), for exponents -5 to -9. Others move the point differently in repr, or
        # end in a zero, or near the ends of the range the shortcut fails (inf, subnormals):
        # the encoder writes those; to be JSON, a point needs a digit after it ("5.e+07").
        if "e+" in text or text.count("e-") != text.count("e-0"):
            text = text.replace(".e", ".0e").replace(".,", ".0,").replace(".]", ".0]")
            numbers = json.loads(text)
            return (numbers if shape else numbers[0]), None
        while "0e" in text:
            text = text.replace("0e", "e")
        text = text.replace(".e", "e")
    # each number without exponent has its point, so a "0," or "0]" is a trailing zero; a
    # few passes of a builtin beat a regular expression's sub here
    while "0," in text:
        text = text.replace("0,", ",")
    while "0]" in text:
        text = text.replace("0]", "]")
    text = text.replace(".,", ".0,").replace(".]", ".0]")  # "2.0", "0.0" keep one
    # the JSON scanner reads each number as float() does, and makes the lists
    numbers = json.loads(text)
    return (numbers, text) if shape else (numbers[0], text[1:-1])


def _template(shape: tuple, digits: int) -> str:
    """The `%` template of data()'s text for `shape`: "[[%#.6g,%#.6g],[%#.6g,%#.6g]]"
    (and "[%#.6g]" for a 0-d value)."""
    key = (shape, digits)
    text = _TEMPLATES.get(key)
    if text is None:
        text = f"%#.{digits}g"
        for dim in reversed(shape or (1,)):
            text = "[" + ",".join([text] * dim) + "]"
        if len(_TEMPLATES) >= 256:
            _TEMPLATES.clear()
        _TEMPLATES[key] = text
    return text


_TEMPLATES: dict[tuple, str] = {}
_ROUNDERS: dict = {}  # digits -> "{:.<digits>g}".format

# Up to 15 significant digits a decimal survives the trip to a (normal) double and back, so
# the shortest text of the double a "%.<digits>g" text stands for (what repr and the JSON
# encoder write) has that text's digits, where the point is the same.
_MOST_DIGITS = 15

# Values with fewer numbers are left to the encoder: marking one costs about what encoding
# eight numbers does.
SPLICE_MIN = 8


def _nest(flat: list, shape: tuple):
    if not shape:
        return flat[0]
    for dim in reversed(shape[1:]):
        flat = [flat[i:i + dim] for i in range(0, len(flat), dim)]
    return flat


def point_texts(points: list) -> list[str]:
    """runner.trace's text of each [pass, number] point of a loop's series, encoded at once
    (no point's text holds "],["); [] if that fails.

        >>> point_texts([[0, 2.5], [1, "nan"]])
        ['[0,2.5]', '[1,"nan"]']
    """
    parts = T.dump_event(points)[2:-2].split("],[")
    if len(parts) != len(points):
        return []
    return list(map("[{}]".format, parts))


def value_text(entry: list, printed: str | None) -> str:
    """runner.trace's text of the value dict a cache entry stands for (keys sorted)."""
    numbers = entry[DATA_TEXT]
    if numbers is None:
        numbers = entry[DATA_TEXT] = T.dump_event(entry[2])
    return ('{"data":' + numbers + ',"dtype":' + T.dump_event(entry[1]) + ',"repr":'
            + ("null" if printed is None else T.dump_event(printed))
            + ',"shape":' + T.dump_event(entry[0]) + "}")


# A marked value as runner.trace's encoder writes it (sorted keys, compact; the dtype is a
# name like "torch.float32" and the shape a list of integers).
_MARKED = re.compile(r'\{"data":"\\u0000([0-9]+)","dtype":"[^"\\]*","repr":null,'
                     r'"shape":\[[0-9,]*\]\}')


def encode(obj: dict, values: list, encoder: Callable[[dict], str]) -> str:
    """encoder(obj), the text of each value in `values` (pairs of a value dict inside `obj`
    and its cache entry) made only the first time that value is encoded.

    A dict that no longer holds its entry's objects (or that was marked already, being
    in `obj` twice) is left to the encoder.
    """
    pieces: list[str] = []
    marked: list[tuple] = []
    try:
        for d, entry in values:
            held, printed = d["data"], d["repr"]
            if held is not entry[2] or len(d) != 4:
                continue
            if printed is None:
                slot = TEXT_PLAIN
            elif printed is entry[3]:
                slot = TEXT_PRINTED
            else:
                continue
            text = entry[slot]
            if text is None:
                text = entry[slot] = value_text(entry, printed)
            d["data"] = f"\0{len(pieces)}"
            d["repr"] = None
            marked.append((d, held, printed))
            pieces.append(text)
        text = encoder(obj)
    finally:
        for d, held, printed in marked:
            d["data"], d["repr"] = held, printed
    if not pieces:
        return text
    spliced, n = _MARKED.subn(lambda m: pieces[int(m[1])], text)
    # a marker always matches (see the NOTE); should one not, the plain text is still right
    return spliced if n >= len(pieces) else encoder(obj)
