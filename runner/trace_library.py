"""Library work folded into one step: what `nn` does inside a module's constructor.

`nn.Linear(4, 8)` makes its weight and bias, and initialises each with `uniform_` under
`no_grad`: a dozen events on the learner's one line, none of them written by the learner. The
recorder marks those records (`Recorder._mark_library`); here each run of marked events from
one line becomes one `elided` event with `reason: "library"`, which carries them (the fold
applies carried events, so the parameters exist with their initial values) and which the
page shows as one step that can be opened (docs/trace-format.md, section 9).

Example:
    >>> evs = [{"kind": "tensor", "line": 2, "tensor": {"id": "t0"}},
    ...        {"kind": "grad_mode", "line": 2}, {"kind": "stdout", "line": 3}]
    >>> [e["kind"] for e in fold(evs, {0, 1})]
    ['elided', 'stdout']
    >>> fold(evs, {0, 1})[0]["counts"]
    {'grad_mode': 1, 'tensor': 1}
"""
from __future__ import annotations

from collections import Counter

# what a library step carries: the definitions later events name, and value changes
_CARRIED = frozenset({"tensor", "op", "inplace"})


def fold(events: list, marked: set) -> list:
    """`events` with each run of marked indices on one line replaced by a library step."""
    out: list = []
    i, n = 0, len(events)
    while i < n:
        if i not in marked:
            out.append(events[i])
            i += 1
            continue
        line = events[i]["line"]
        j = i + 1
        while j < n and j in marked and events[j]["line"] == line:
            j += 1
        out.append(library_step(events[i:j], line))
        i = j
    return out


def library_step(group: list, line) -> dict:
    """The `elided` event standing for `group`, the library's events on `line`."""
    return {"kind": "elided", "line": line, "reason": "library", "passes": None,
            "counts": dict(sorted(Counter(e["kind"] for e in group).items())),
            "carried": [e for e in group if e["kind"] in _CARRIED], "updates": [],
            "series": [], "stdout": "", "warnings": []}
