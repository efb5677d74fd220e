"""Forward-mode state: the open dual level and the tangent of each dual tensor.

PyTorch keeps a tensor's tangent in its autograd metadata, per level. gradstep supports one
level at a time (as PyTorch does today), so a tangent is stored once, here, keyed by the
tensor's uid: `tangents[t._uid]` is t's tangent while a level is open (`attach` sets it).
Exiting the level clears the table, which is how tangents are dropped.

The op machinery reads `tangents` on every op (`if tangents and ...`): an empty dict is
falsy, so with no dual tensor alive an op pays one truth test. The public API is
`engine/autograd/forward_ad.py`; the rules that push tangents through ops are in
`engine/ops/_tangents.py`.
"""
from __future__ import annotations

import weakref

tangents: dict = {}     # tensor uid -> tangent Tensor, only while a level is open


def attach(t, tangent) -> None:
    """Make `tangent` t's. The entry goes when t does (a loop inside one level would
    otherwise keep every intermediate's tangent alive until the level exits)."""
    if t._uid not in tangents:
        weakref.finalize(t, tangents.pop, t._uid, None)
    tangents[t._uid] = tangent


class _Level:
    current = -1        # the open level's number, -1 when none (PyTorch's numbering)


level = _Level()
