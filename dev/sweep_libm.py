"""Exhaustive check behind engine/ops/_exact.py's tiny route: for every float32 in a range
(both signs), does the math module's double function, rounded to float32, give the bits of
numpy's float64 ufunc rounded to float32?

usage: python dev/sweep_libm.py sin|cos|tanh LOW HIGH

A development script, not a test (tests/engine/test_exact.py samples the same property).
It walks the float32 bit patterns from LOW to HIGH in blocks of 4M, prints the first few
differing inputs of any block, and a total at the end; about 8 s per 67M values on one core.
"""
from __future__ import annotations

import math
import sys
import time

import numpy as np

PAIRS = {"sin": (np.sin, math.sin), "cos": (np.cos, math.cos), "tanh": (np.tanh, math.tanh)}
BLOCK = 1 << 22


def sweep(name: str, low: float, high: float) -> int:
    ufunc, fn = PAIRS[name]
    first = int(np.float32(low).view(np.uint32))
    last = int(np.float32(high).view(np.uint32))
    differing = checked = 0
    for start in range(first, last + 1, BLOCK):
        pattern = np.arange(start, min(start + BLOCK, last + 1), dtype=np.uint32)
        for sign in (0, 0x80000000):
            x = (pattern | np.uint32(sign)).view(np.float32)
            wide = x.astype(np.float64)
            want = ufunc(wide).astype(np.float32).view(np.uint32)
            got = np.fromiter(map(fn, wide.tolist()), np.float32, x.size).view(np.uint32)
            bad = np.nonzero(got != want)[0]
            checked += x.size
            differing += bad.size
            if bad.size:
                print("differ at", x[bad[:8]].tolist(), flush=True)
    print(f"{name} [{low}, {high}] both signs: {checked} values, {differing} differ")
    return differing


if __name__ == "__main__":
    t0 = time.time()
    n = sweep(sys.argv[1], float(sys.argv[2]), float(sys.argv[3]))
    print(f"{time.time() - t0:.0f} s")
    sys.exit(1 if n else 0)
