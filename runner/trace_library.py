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


def fold(events: list, marked: set, calls: dict | None = None) -> list:
    """`events` with each run of marked indices on one line replaced by a library step;
    `calls` names the library function (`clip_grad_norm_`) whose work an index is."""
    calls = dict(calls or {})
    marked = set(marked)
    n = len(events)
    for k in sorted(calls):     # the no_grad its decorator enters and leaves is its work too
        for near in (k - 1, k + 1):
            while 0 <= near < n and near not in marked and events[near]["kind"] == "grad_mode" \
                    and events[near]["line"] == events[k]["line"]:
                marked.add(near)
                calls[near] = calls[k]
                near += 1 if near > k else -1
    out: list = []
    i = 0
    while i < n:
        if i not in marked:
            out.append(events[i])
            i += 1
            continue
        line, fn = events[i]["line"], calls.get(i)
        j = i + 1
        while j < n and j in marked and events[j]["line"] == line and calls.get(j) == fn:
            j += 1
        out.append(library_step(events[i:j], line, fn))
        i = j
    return out


def library_step(group: list, line, fn: str | None = None) -> dict:
    """The `elided` event standing for `group`, the library's events on `line`; for a
    function on the gradients (`fn`), its result: the total norm and the scale it applied,
    and each `.grad` it changed as an update."""
    step = {"kind": "elided", "line": line, "reason": "library", "passes": None,
            "counts": dict(sorted(Counter(e["kind"] for e in group).items())),
            "carried": [e for e in group if e["kind"] in _CARRIED], "updates": [],
            "series": [], "stdout": "", "warnings": []}
    if fn is not None:
        resets = [e for e in group if e["kind"] == "grad_reset"]
        step["updates"] = [{"tensor": e["tensor"], "grad": e["grad"]} for e in resets]
        # the .grad tensors it read are those very tensors, changed in place: their boxes
        # show the new numbers too
        grad_box = {e["tensor"]["grad_of"]: e["tensor"]["id"] for e in group
                    if e["kind"] == "tensor" and e["tensor"].get("grad_of")}
        step["updates"] += [{"tensor": grad_box[e["tensor"]], "value": e["grad"]}
                            for e in resets if e["tensor"] in grad_box and e["grad"]]
        step["call"] = {"fn": fn, **_result(group)}
    return step


def _result(group: list) -> dict:
    """clip_grad_norm_'s numbers: the last norm taken (the total norm) and the factor the
    gradients were multiplied by (the op feeding the first in-place change)."""
    out: dict = {}
    ops = [e for e in group if e["kind"] == "op"]
    norms = [e for e in ops if e["op"] == "norm"]
    if norms:
        out["total"] = norms[-1]["output"]["value"]
    first = next((k for k, e in enumerate(group) if e["kind"] == "grad_reset"), None)
    before = [e for e in group[:first] if e["kind"] == "op"] if first is not None else []
    if before and before[-1]["op"] in ("clamp", "clamp_max", "mul", "div"):
        out["scale"] = before[-1]["output"]["value"]
    return out
