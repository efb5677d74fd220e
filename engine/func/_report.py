"""What the transforms report to an observer (engine/_events.py): where a Jacobian's rows or
columns, a vmap's samples, or a J·v come from, one step at a time.

Every call is guarded, so with no listener a transform pays one attribute check per step.
The seeds of a row or column are built only for a listener: the transforms themselves seed one
output or input at a time and never need the zeros for the others.
"""
from __future__ import annotations

from .. import _events


def begin(api: str, mode: str, inputs, outputs, steps: int) -> None:
    if _events.listener is not None:
        _events.listener.on_transform_begin(api, mode, tuple(inputs), tuple(outputs), steps)


def step(api: str, index: int, seed, result) -> None:
    if _events.listener is not None:
        _events.listener.on_transform_step(api, index, tuple(seed), tuple(result))


def end(api: str, result) -> None:
    if _events.listener is not None:
        _events.listener.on_transform_end(api, tuple(result))


def one_hot_seeds(tensors: list, index: int) -> list:
    """Arrays of zeros shaped like each tensor, with a 1 at element `index` of them all laid end to
    end: the seed of row (or column) `index` of a Jacobian over several outputs (inputs)."""
    import numpy as np
    seeds = []
    for t in tensors:
        a = np.zeros(t.shape, dtype=t._data.dtype)
        if 0 <= index < a.size:
            a.reshape(-1)[index] = 1
        index -= a.size
        seeds.append(a)
    return seeds
