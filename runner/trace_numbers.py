"""How the trace writes a number: `num`, shared by the trace builder and the recorder's parts
that round values as they record them (a module of its own, so that those parts can import it
without importing the builder that imports them)."""
from __future__ import annotations

import math

import numpy as np


def num(x, digits: int):
    """A number as the trace writes it: rounded to `digits` significant digits, a string for
    NaN and the infinities, bools and integers as they are."""
    if type(x) is float and math.isfinite(x):
        # The usual case (a wrapped scalar input, a loss for the series) first: each
        # isinstance test below against numpy's scalar types costs about as much as the
        # rounding, and a spec made once per `digits` saves building it on every call.
        spec = _ROUND_SPECS.get(digits)
        if spec is None:
            spec = _ROUND_SPECS[digits] = f".{digits}g"
        return float(format(x, spec))
    if isinstance(x, (bool, np.bool_)):
        return bool(x)
    if isinstance(x, (int, np.integer)):
        return int(x)
    x = float(x)
    if math.isnan(x):
        return "nan"
    if math.isinf(x):
        return "inf" if x > 0 else "-inf"
    return float(f"{x:.{digits}g}")


_ROUND_SPECS: dict = {}  # digits -> format spec, for num()
