"""The elided middle's definitions (runner/trace_summary.py): an op's output and its node share
one entry (NOTE [entries in flight]), and must still be swept exactly as two entries were.
"""
from __future__ import annotations

import gc

import numpy as np

from gradstep.runner.trace_summary import Summary


class _Node:
    """Stands for a graph node: weakly referenceable, with the engine's uid."""

    def __init__(self, uid: int) -> None:
        self._uid = uid
        self._saved = ()


def _op(out: str, node: _Node) -> tuple:
    """An op record as on_op makes it (NOTE [op records]), introducing no other node."""
    return ("op", 3, "mul", 1, out, "n1", node, (), (), True, False, b"\0\0\0\0", (1,),
            np.dtype(np.float32), True, "MulBackward0", 2, ("t0",))


def _absorb_empty(summary: Summary, windows: int) -> None:
    for _ in range(windows):
        summary.absorb([])


def test_a_dead_ops_output_and_node_are_swept_together_even_with_no_tail():
    summary = Summary(tail=0)
    node = _Node(7)
    summary.absorb([_op("t1", node)])
    del node
    gc.collect()
    _absorb_empty(summary, 15)   # the 16th window sweeps: both keys are first seen dead
    assert set(summary.defs) == {"t1", 7}
    _absorb_empty(summary, 16)   # the next sweep drops both
    assert summary.defs == {}


def test_live_definitions_name_nodes_as_the_builder_does():
    summary = Summary(tail=2)
    node = _Node(7)
    summary.absorb([_op("t1", node)])
    defs = summary.live_defs()
    assert list(defs) == ["t1", ("node", 7)]
    assert defs["t1"] is defs[("node", 7)]
    assert defs["t1"][6] is node    # revived with a strong reference again
    del node, defs
    gc.collect()
    assert summary.live_defs() == {}
