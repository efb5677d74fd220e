"""Small readings of a run's trace that several picture services share.

Example:
    >>> shape_text([3]), shape_text([2, 4]), shape_text([])
    ('(3,)', '(2, 4)', '()')
"""
from __future__ import annotations

from collections.abc import Iterator


def op_events(events: list[dict]) -> Iterator[dict]:
    """Every `op` event of a trace, those an `elided` stretch carries included, in order."""
    for ev in events:
        if ev["kind"] == "elided":
            yield from (c for c in ev.get("carried") or [] if c["kind"] == "op")
        elif ev["kind"] == "op":
            yield ev


def shape_text(shape: list[int]) -> str:
    """A shape as PyTorch's tuples print it: `(3,)`, `(2, 4)`, `()`."""
    return "(" + ", ".join(map(str, shape)) + ("," if len(shape) == 1 else "") + ")"
