"""The trace's caps: `limits.max_events` and `limits.max_bytes` (docs/trace-format.md,
section 10), applied to the rendered events of `runner/trace_build.py`'s Builder.

Every stretch of the run keeps its beginning and end (runner/trace_ends.py); each left-out
run becomes one `elided` event (console text, warnings, updates and the definitions later
events name carried into it), its errors after it; when even that is too big, the series go
and the console text is cut from the end.
"""
from __future__ import annotations

import json
from typing import TYPE_CHECKING

from . import trace as T
from . import trace_ends as ends

if TYPE_CHECKING:
    from .trace_build import Builder

SIZER = json.JSONEncoder(separators=(",", ":"), ensure_ascii=False, allow_nan=False,
                         check_circular=False)  # as runner.trace's encoder


def list_bytes(events: list, total) -> int:
    """Bytes of `events` encoded as one compact JSON list: theirs (`total(events)`, the sum
    of Builder.nbytes), the commas, the brackets."""
    return total(events) + len(events) + 1 if events else 2


def _closure(defs: list[dict], needed: list) -> list:
    """The events among `defs` defining ids in `needed`, in their order: only those named,
    not what they name in turn (runner/trace_ends.py, defined_first)."""
    by_id: dict[str, dict] = {}
    for e in defs:
        for i in T.defined_ids(e):
            by_id.setdefault(i, e)
    chosen = {}
    while needed:
        e = by_id.get(needed.pop())
        if e is None or id(e) in chosen:
            continue
        chosen[id(e)] = e
    return [e for e in defs if id(e) in chosen]


def _updates(changed: dict, defs: list, carried: list, later: list) -> list:
    """The latest value and .grad of tensors a left-out run changed, for the kept events
    after it (none follow the last run); a tensor made inside the run only if carried."""
    if not later:
        return []
    made = {i for e in defs for i in T.defined_ids(e)}
    present = {i for e in carried for i in T.defined_ids(e)}
    return [{"tensor": tid, **dict(sorted(u.items()))} for tid, u in changed.items()
            if tid not in made or tid in present]


class Capper:
    """Enforce limits.max_events and limits.max_bytes (docs/trace-format.md, section 10)."""

    def __init__(self, builder: Builder, trace: dict, counts: dict) -> None:
        self.b, self.trace, self.counts = builder, trace, counts
        self.lim = builder.lim

    def cap(self, events: list) -> list:
        limit = self.lim["max_bytes"]
        if len(events) + 1 > self.lim["max_events"]:
            events = self.cut(events, max(self.lim["max_events"] - 3, 0), "event_cap")
        size = self.size(events)  # a sum: each event was measured once (Builder.nbytes)
        if size <= limit:
            return events
        # Over the cap: guess the prefix that fits in proportion, then shrink it by the
        # measured overshoot.
        base = self.size([])
        keep, out = len(events), events
        while size > limit and keep > 0:
            ratio = max(limit - base, 0) / max(size - base, 1)
            keep = min(int(keep * ratio * 0.97), keep - 1)
            out = self.cut(events, max(keep, 0), "byte_cap")
            size = self.size(out)
        if size > limit:
            out = self.squeeze(out)
        return out

    def size(self, events: list) -> int:
        """Bytes of dump() for a trace with these events (seq numbers estimated)."""
        end = {"kind": "end", "line": None, "exit_code": 0, "seq": 10 ** 9,
               "counts": {**self.counts, "events": 10 ** 9}}
        head = {k: v for k, v in self.trace.items() if k != "events"}
        # Key order does not change the length, so skip sorting; + 1 newline and ~16 bytes
        # of "seq" per event.
        return (len(self.b.with_series(head).encode()) + 16 + len(SIZER.encode(end).encode())
                + list_bytes(events, self.b.total_bytes) + 17 * len(events))

    def cut(self, events: list, keep: int, reason: str) -> list:
        """Keep `keep` of the events, each stretch's beginning and end (runner/trace_ends.py);
        summarise every left-out run into one `elided` event (its errors stay after it)."""
        out = list(events)
        for start, stop in reversed(ends.left_out(ends.kept([e["kind"] for e in events],
                                                             keep))):
            later = [e for e in out[stop:] if e["kind"] != "graph_freed"]  # known_freed
            out[start:stop] = self.summarise(out[start:stop], later, reason)
        return out

    def summarise(self, rest: list, later: list, reason: str) -> list:
        """The `elided` event for the events `rest` and the errors among them, which stay
        after it; `later` are the kept events that follow."""
        counts: dict[str, int] = {}
        stdout: list[str] = []
        warns: list[dict] = []
        kept_after: list[dict] = []
        carried_defs: list[dict] = []
        changed: dict[str, dict] = {}   # tid -> the latest {"grad"?, "value"?}
        for e in rest:
            kind = e["kind"]
            if kind == "error":
                kept_after.append(e)
                continue
            if kind == "elided":
                before = sum(map(len, stdout))  # its warnings' places, in the joined text
                warns.extend({**w, "at": before + w["at"]} if "at" in w else w
                             for w in e["warnings"])
                stdout.append(e["stdout"])
                carried_defs.extend(e["carried"])
                for u in e["updates"]:
                    changed.setdefault(u["tensor"], {}).update(
                        (k, v) for k, v in u.items() if k != "tensor")
                for k, v in e["counts"].items():
                    counts[k] = counts.get(k, 0) + v
                continue
            counts[kind] = counts.get(kind, 0) + 1
            if kind == "stdout":
                stdout.append(e["text"])
            elif kind == "warning":
                warns.append({"category": e["category"], "message": e["message"],
                              "line": e["line"], "at": sum(map(len, stdout))})
            elif kind in ("tensor", "op", "inplace"):
                carried_defs.append(e)
                if kind == "inplace":
                    changed.setdefault(e["tensor"], {})["value"] = e["value"]
            elif kind == "accumulate":
                changed.setdefault(e["tensor"], {})["grad"] = e["after"]
            elif kind == "grad_reset":
                changed.setdefault(e["tensor"], {})["grad"] = e["grad"]
            elif kind == "optimizer_step":
                for p in e["params"]:
                    changed.setdefault(p["tensor"], {})["value"] = p["after"]
        needed: list = []
        T._ids_in(kept_after, needed)
        T._ids_in(later, needed)
        carried = _closure(carried_defs, needed)
        passes = [e["pass"] for e in rest if e["kind"] == "backward_begin"]
        self.counts["elided_events"] = self.counts.get("elided_events", 0) + sum(counts.values())
        ev = {"kind": "elided", "line": None, "reason": reason,
              "passes": [passes[0], passes[-1]] if passes else None, "counts": counts,
              "carried": carried, "updates": _updates(changed, carried_defs, carried, later),
              "series": [], "stdout": "".join(stdout), "warnings": warns}
        return [ev] + kept_after

    def squeeze(self, events: list) -> list:
        """Last resort when even a summary is too big: drop series and cut console text."""
        self.trace["series"] = {"roots": [], "printed": []}
        size = self.size(events)
        for e in reversed(events):
            if size <= self.lim["max_bytes"]:
                break
            if e["kind"] == "elided" and e["stdout"]:
                over = size - self.lim["max_bytes"]
                data = e["stdout"].encode()
                e["stdout"] = data[:max(len(data) - over - 64, 0)].decode("utf-8", "ignore")
                e["counts"]["stdout_truncated"] = 1
                size = self.size(events)
        return events
