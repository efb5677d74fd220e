"""Which events stay when a cap binds: every stretch keeps its beginning and its end
(docs/trace-format.md, section 10).

A run is cut into stretches: each backward pass (from its `backward_begin` to its
`backward_end`) and the events between passes. The room the caps leave is shared equally
between the stretches; a stretch shorter than its share keeps all of it, a longer one its
first and last events with one `elided` event for the middle, as a long loop keeps its
first and last iterations. So a 5,000-op chain shows the start and end of its forward pass
and of its backward pass, where a plain prefix would have shown forward ops only.

Pure functions over event kinds; `runner/trace_build.py` (records) and `runner/trace_cap.py`
(rendered events) turn the left-out runs into `elided` events.
"""
from __future__ import annotations

from .trace import _TEXT_KEYS  # keys whose strings are free text, never ids

# A stretch given less room than this is left out whole: keeping its first and last event
# takes three slots with the elided event between them.
_LEAST = 3


def stretches(kinds: list[str]) -> list[tuple[int, int]]:
    """[start, stop) of each stretch: a new one begins at every `backward_begin` and after
    every `backward_end`."""
    bounds, start = [], 0
    for i, kind in enumerate(kinds):
        if kind == "backward_begin" and i > start:
            bounds.append((start, i))
            start = i
        elif kind == "backward_end":
            bounds.append((start, i + 1))
            start = i + 1
    if start < len(kinds):
        bounds.append((start, len(kinds)))
    return bounds


def shares(lengths: list[int], room: int) -> list[int]:
    """Split `room` slots between stretches of these lengths: equal shares, a stretch shorter
    than its share keeps its length and leaves the rest to the others.

    Example:
        >>> shares([10, 2, 10], 12)
        [5, 2, 5]
    """
    out = [0] * len(lengths)
    left = max(room, 0)
    order = sorted(range(len(lengths)), key=lambda i: lengths[i])
    for done, i in enumerate(order):
        share = left // (len(order) - done)
        out[i] = min(lengths[i], share)
        left -= out[i]
    return out


def kept(kinds: list[str], room: int) -> list[bool]:
    """For each event, whether it stays when `room` slots are left (a run of left-out events
    takes one, for its `elided` event); `overflow` records (only counted) never stay."""
    keep = [False] * len(kinds)
    bounds = stretches(kinds)
    for (start, stop), share in zip(bounds, shares([b - a for a, b in bounds], room)):
        if share >= stop - start:
            keep[start:stop] = [True] * (stop - start)
        elif share >= _LEAST:
            tail = (share - 1) // 2
            head = share - 1 - tail
            keep[start:start + head] = [True] * head
            keep[stop - tail:stop] = [True] * tail
    for i, kind in enumerate(kinds):
        if kind == "overflow":
            keep[i] = False
    return keep


def left_out(keep: list[bool]) -> list[tuple[int, int]]:
    """[start, stop) of each run of events that do not stay."""
    runs, start = [], None
    for i, k in enumerate(keep):
        if not k and start is None:
            start = i
        elif k and start is not None:
            runs.append((start, i))
            start = None
    if start is not None:
        runs.append((start, len(keep)))
    return runs


def defined_first(events: list[dict], defined, is_id) -> list[dict]:
    """`events` with every reference to an id not yet defined dropped, once a cap has cut.

    A cut carries the definitions that kept events name, but not what those name in turn:
    in a chain every op names the one before it, so carrying the whole closure would bring
    back the stretch the cut left out. What a carried definition names in the left-out
    stretch is therefore forgotten (an input, an edge to a node, a saved tensor, all shown
    as absent), and so are the nodes a `graph_freed` lists that no kept event defines (a
    pass frees every node of its graph; most are never shown). A changed event is a new
    dict: the text the builder encoded for the old one must not be reused. `defined(event)`
    lists the ids an event defines (runner.trace.defined_ids), `is_id(text)` tells an id.
    """
    known: set = set()
    out = []
    for e in events:
        kind = e["kind"]
        if kind == "graph_freed":
            nodes = [n for n in e["nodes"] if n in known]
            if len(nodes) != len(e["nodes"]):
                e = {**e, "nodes": nodes}
        elif kind == "elided" and e["reason"] in ("event_cap", "byte_cap"):
            carried = []
            for c in e["carried"]:
                c = _forget(c, known, set(defined(c)), is_id)
                known.update(defined(c))
                carried.append(c)
            e = {**e, "carried": carried}
        known.update(defined(e))
        out.append(e)
    return out


def _forget(event: dict, known: set, own: set, is_id):
    """A copy of `event` without references to ids outside `known` and `own`: an input
    left out, any other reference None (a key `variable` removed)."""
    def strip(obj, key=None):
        if isinstance(obj, dict):
            return {k: strip(v, k) for k, v in obj.items()
                    if not (k == "variable" and isinstance(v, str) and v not in known | own)}
        if isinstance(obj, list):
            items = [strip(v, key) for v in obj]
            if key == "inputs":
                return [v for v, old in zip(items, obj) if not (old is not None and v is None)]
            return items
        if isinstance(obj, str) and key not in _TEXT_KEYS and is_id(obj) and obj not in known \
                and obj not in own:
            return None
        return obj
    return strip(event)

