"""Turning a recording into trace events: values, elision and the byte cap.

The other half of the recorder (`runner/recorder.py` listens and records cheaply): once a run
ends, `Builder` renders each kept record to the event dicts of `runner/trace.py`;
`runner/trace_summary.py`'s `Summary` stands for the elided middle of a long loop
(docs/trace-format.md, section 9); the caps are `runner/trace_cap.py`'s `Capper` (section 10).
"""
from __future__ import annotations

import bisect
import contextlib
import gc
import operator
import math
import re
from typing import TYPE_CHECKING

import numpy as np

from gradstep.engine import dtypes
from gradstep.engine.graph import FREED, AccumulateGrad
from gradstep.engine.printing import format_array
from gradstep.engine.tensor import Tensor

from . import trace as T
from . import trace_ends as ends
from . import trace_library
from . import trace_values
from .recorder_optim import RENDERERS as OPTIM_RENDERERS
from .trace_numbers import num
from .trace_cap import Capper, list_bytes

_MIDDLE = ("middle",)  # a marker among the records: the elided middle's place
_UNPRINTED = object()  # a cached value whose printed form nobody has asked for yet

if TYPE_CHECKING:
    from .recorder import Recorder
    from .trace_summary import Summary

# A value snapshot (see runner/recorder.py): (bytes or None, shape, numpy dtype, requires_grad,
# grad_fn name or None).
Snap = tuple


class Builder:
    """Turns the recorder's records into trace events (rendering values once, at the end)."""

    def __init__(self, rec: Recorder) -> None:
        self.rec = rec
        self.lim = rec.limits
        self.digits = self.lim["digits"]
        self.reprs_left = self.lim["repr_budget"]
        self.node_ids = rec._nids
        self._middle: dict | None = None     # the elided middle's placeholder: render()
        # The same numbers recur (a node's outgoing gradient is the next node's incoming
        # one), and printing dominates rendering: render each distinct snapshot once.
        self.cache: dict[tuple, list] = {}
        # The values with list data rendered into the event being rendered, as (value dict,
        # cache entry) pairs, and those of each event (id(event) -> (event, pairs); the entry
        # holds its event, so its id is its own): NOTE [values encoded once] in
        # runner/trace_values.py.
        self._made: list | None = None
        self._owned: dict[int, tuple] = {}
        self._classes: dict[type, tuple] = {}  # see node_class()
        # id(event) -> (event, bytes, its UTF-8 text, where the seq goes in it): see nbytes()
        # and event_parts(). The entry holds its event, so no other object can have that id
        # while the builder lives.
        self._texts: dict[int, tuple] = {}
        self._sizes: dict[int, int] = {}  # id(event) -> bytes, of the events in _texts
        # id(series) -> (series, its text): a loop's loss series is most of the header and
        # of an elided event, which are sized for the byte cap and encoded again by dump
        self._series: dict[int, tuple] = {}
        # The loop's series points, and their texts, made once (points_text): the header's
        # roots and an elided event's series are runs of the same points.
        self._points: list = rec._series
        self._point_texts: list[str] | None = None

    # -- values
    def value(self, snap: Snap, text: bool = True) -> dict:
        raw, shape, npdtype, rg, fn_name = snap
        return self.fields_value(raw, shape, npdtype, rg, fn_name, text)

    def fields_value(self, raw, shape, npdtype, rg, fn_name, text: bool = True) -> dict:
        """`value` of a snapshot given field by field (as the flat records hold them).

        NOTE [text where it is read]: PyTorch's printed form costs more than everything else
        a value needs (about half of finishing a loop's trace), and the page reads it in one
        place: the inspector, for a tensor's value, its `.grad` and its tangent. Values
        elsewhere (gradients on edges, roots and seeds, what an accumulation added, an
        optimizer's `before`, saved non-tensors' neighbours) are drawn from `data`, so they
        get `repr: null` (`text=False`), even when the same numbers were printed for a
        reader elsewhere: text nobody reads is bytes every answer carries and encodes.
        """
        if raw is None:
            return {"shape": list(shape), "dtype": _dtype_name(npdtype), "data": None,
                    "repr": None}
        key = (raw, shape, npdtype, rg, fn_name)
        hit = self.cache.get(key)
        if hit is None:
            data = data_text = None
            numel = math.prod(shape)
            if numel <= self.lim["data_max_numel"]:
                data, data_text = trace_values.data(raw, shape, npdtype, self.digits)
            # then data's text, the value's text without and with its printed form, and
            # whether it is worth encoding once (NOTE [values encoded once] in
            # runner/trace_values.py)
            hit = self.cache[key] = [list(shape), _dtype_name(npdtype), data, _UNPRINTED,
                                     data_text, None, None,
                                     data is not None and numel >= trace_values.SPLICE_MIN]
        if not text:
            out = {"shape": hit[0], "dtype": hit[1], "data": hit[2], "repr": None}
        else:
            printed = hit[3]
            if printed is _UNPRINTED:
                printed = None
                if self.reprs_left > 0:
                    printed = _repr(np.frombuffer(raw, dtype=npdtype).reshape(shape), rg,
                                    fn_name)
                    if printed is not None:
                        self.reprs_left -= 1
                hit[3] = printed
            out = {"shape": hit[0], "dtype": hit[1], "data": hit[2], "repr": printed}
        if hit[7] and self._made is not None:  # worth encoding once
            self._made.append((out, hit))
        return out

    def grad(self, g) -> dict | None:
        if g is None:
            return None
        out = self.fields_value(g[0], g[1], g[2], g[3], g[4], text=False)
        if g[5] is not None:
            out["tensor"] = g[5]
        return out

    def tensor(self, tid: str, snap_t: tuple, grad_of: str | None = None) -> dict:
        snap, fn_id = snap_t
        out = self.op_tensor(tid, fn_id, *snap)
        if grad_of is not None:
            out["grad_of"] = grad_of
            owner = self.rec._names.get(grad_of)
            if out["name"] is None and owner is not None:
                out["name"] = f"{owner}.grad"   # `w.grad` as the program wrote it
        return out

    def op_tensor(self, tid: str, fn_id, raw, shape, npdtype, rg, fn_name) -> dict:
        """`tensor` of an op's output, from the fields of its flat record."""
        return {"id": tid, "name": self.rec._names.get(tid), "shape": list(shape),
                "dtype": _dtype_name(npdtype), "requires_grad": bool(rg),
                "is_leaf": fn_id is None, "grad_fn": fn_id,
                "value": self.fields_value(raw, shape, npdtype, rg, fn_name)}

    def node(self, node, saved_objs: tuple, bound: int) -> dict:
        """A node's definition in an event recorded when `bound` tensor ids had been given:
        tensors with later ids are described by value (NOTE [op records] in recorder_forward.py)."""
        cls_name, saved_names, rule, accumulates = self.node_class(type(node))
        ids, node_ids = self.rec._tids, self.node_ids
        saved = []
        for name, obj in zip(saved_names, saved_objs):
            if isinstance(obj, Tensor):
                tid = _id_within(ids.get(obj._uid), bound)
                saved.append({"name": name, "tensor": tid, "freed": False,
                              "value": None if tid is not None else self.value(
                                  _tensor_snap(obj, self.rec._copy_max), False)})
            elif obj is FREED or obj is None:  # None: saved only when needed, not needed
                saved.append({"name": name, "tensor": None, "value": None,
                              "freed": obj is FREED})
            else:
                saved.append({"name": name, "tensor": None, "freed": False,
                              "value": _py_value(obj, self.digits)})
        out = {"id": node_ids[node._uid], "name": cls_name,
               "next_functions": [[None if n is None else node_ids.get(n._uid), int(i)]
                                  for n, i in node.next_functions],
               "saved": saved, "rule": rule}
        if accumulates:
            variable = _id_within(ids.get(node.variable._uid), bound)
            if variable is not None:
                out["variable"] = variable
        return out

    def node_class(self, cls: type) -> tuple:
        """(name, saved names, rule or None, whether it is AccumulateGrad) of a node class,
        looked up once per class and trace: every op and node_apply event names one. (Kept
        per trace, not per process: each custom autograd.Function makes a class.)"""
        info = self._classes.get(cls)
        if info is None:
            info = self._classes[cls] = (cls.__name__, tuple(getattr(cls, "_saved_names", ())),
                                         getattr(cls, "_rule", "") or None,
                                         issubclass(cls, AccumulateGrad))
        return info

    def figure(self, fig: dict) -> dict:
        """A matplotlib figure for the header: its words, and its lines' points thinned to
        `series_max` and made JSON numbers (nan and inf by name)."""
        cap, d = self.lim["series_max"], self.digits
        return dict(fig, lines=[{"label": line["label"],
                                 "rows": [[num(x, d), num(y, d)]
                                          for x, y in _thin(line["rows"], cap)]}
                                for line in fig["lines"]])

    # -- records -> events
    def event(self, rec: tuple) -> dict:
        kind, line = rec[0], rec[1]
        outer, self._made = self._made, []  # as noting(), without a generator per event
        try:
            ev = {"kind": "elided" if kind == "failure" else kind, "line": line}
            ev.update(_RENDERERS[kind](self, rec))
            return self.owning(ev, self._made)
        finally:
            self._made = outer

    @contextlib.contextmanager
    def noting(self):
        """Note the values rendered inside the block in the list it gives."""
        outer, self._made = self._made, []
        try:
            yield self._made
        finally:
            self._made = outer

    def owning(self, ev: dict, made: list) -> dict:
        """`ev`, noted as holding the values in `made` (NOTE [values encoded once])."""
        if made:
            self._owned[id(ev)] = (ev, made)
        return ev

    def values_in(self, obj: dict) -> list:
        """The (value dict, cache entry) pairs noted for `obj`, and for an elided event
        those of its carried events too."""
        own = self._owned.get(id(obj))
        made = own[1] if own is not None and own[0] is obj else []
        if obj.get("kind") == "elided":
            made = list(made)
            for c in obj.get("carried", ()):  # (not in the middle's placeholder)
                own = self._owned.get(id(c))
                if own is not None and own[0] is c:
                    made.extend(own[1])
        return made

    def _ev_tensor(self, r):
        return {"tensor": self.tensor(r[2], r[3], r[6]), "how": r[4], "grad_mode": r[5]}

    def _ev_op(self, r):
        _, _, op, _, out_id, fn_id, node, saved, new_nodes, mode, in_bw = r[:11]
        # the input ids are one tuple, last (NOTE [op records] in recorder_forward.py)
        return {"op": op, "inputs": [i if type(i) is str else num(i, self.digits)
                                     for i in r[17]],
                "output": self.op_tensor(out_id, fn_id, *r[11:16]),
                "node": None if node is None else self.node(node, saved, r[16]),
                "new_nodes": [self.node(n, saved, r[16]) for n, saved in new_nodes],
                "grad_mode": mode, "in_backward": in_bw,
                **({"by": self.rec._built_by[out_id]}
                   if in_bw and out_id in self.rec._built_by else {}),
                **({"recompute": True} if in_bw and out_id in self.rec._recomputed else {}),
                **({"tangent": self.value(self.rec._op_tangents[id(r)][1])}
                   if self.rec._op_tangents and id(r) in self.rec._op_tangents else {})}

    def _ev_inplace(self, r):
        return {"tensor": r[2], "op": r[3], "version": int(r[4]), "value": self.value(r[5]),
                "grad_fn": r[6], "node": None if r[7] is None else self.node(*r[7], r[9]),
                "new_nodes": [self.node(n, saved, r[9]) for n, saved in r[8]]}

    def _ev_grad_mode(self, r):
        return {"enabled": bool(r[2]), "mode": r[3], **({"exit": True} if r[4] else {})}

    def _ev_backward_begin(self, r):
        _, _, k, api, roots, rvals, seeds, implicit, retain, create, inputs, leaves, jac, \
            note = r
        return {"pass": k, "api": api, "roots": roots,
                "root_values": [self.value(s, False) for s in rvals],
                "seeds": [self.value(s, False) for s in seeds], "implicit_seed": implicit,
                "retain_graph": retain, "create_graph": create, "inputs": inputs,
                "leaves": leaves, "jacobian": jac, **({"jacobian_note": note} if note else {})}

    def _ev_node_apply(self, r):
        k, nid, node, n_in = r[2:6]  # the gradients follow (NOTE [op records])
        gin, gout = r[6:6 + n_in], r[6 + n_in:]
        ids = self.node_ids
        cls_name, _, rule, _ = self.node_class(type(node))
        ev = {"pass": k, "node": nid, "name": cls_name, "rule": rule,
              "grads_in": [self.grad(g) for g in gin], "grads_out": [self.grad(g) for g in gout],
              "to": [None if n is None else ids.get(n._uid) for n, _ in node.next_functions]}
        local = self.rec._locals.get(id(r)) if self.rec._locals else None
        if local is not None:   # runner/recorder_chain.py; the record is held, so id is its own
            d = self.digits
            ev["local"] = [None if col is None else [[[i, num(x, d)] for i, x in terms]
                                                     for terms in col] for col in local[1]]
        return ev

    def _ev_accumulate(self, r):
        _, _, k, tid, nid, before, added, after = r
        return {"pass": k, "tensor": tid, "node": nid,
                "before": None if before is None else self.value(before, False),
                "added": self.value(added, False), "after": self.value(after)}

    def _ev_graph_freed(self, r):
        return {"pass": r[2], "nodes": r[3]}

    def _ev_backward_end(self, r):
        return {"pass": r[2], "api": r[3]}

    def _ev_grad_reset(self, r):
        ev = {"tensor": r[2], "how": r[3], "grad": None if r[4] is None else self.value(r[4])}
        if r[3] not in _RESETS:  # another in-place op on the .grad (clip_grad_norm_'s mul_)
            ev["how"], ev["op"] = "inplace", r[3]
        return ev

    def _ev_hook(self, r):
        _, _, k, kind, tensors, node, module, name, got, gave = r
        return {"pass": k, "hook": kind, "tensors": tensors, "node": node, "module": module,
                "fn": name, "received": [self.grad(g) for g in got],
                "returned": None if gave is None else [self.grad(g) for g in gave]}

    def _ev_optimizer_step(self, r):
        return {"optimizer": r[2], "lr": r[3],
                "params": [{"tensor": t, "before": self.value(b, False),
                            "after": self.value(a)}
                           for t, b, a in r[4]], **({"momentum": r[5]} if r[5] else {})}

    def _ev_transform_begin(self, r):
        _, _, k, api, mode, in_shapes, out_shapes, steps, rows, cols, jac = r
        return {"transform": k, "api": api, "mode": mode, "in_shapes": in_shapes,
                "out_shapes": out_shapes, "steps": steps, "rows": rows, "cols": cols,
                "jacobian": jac}

    def _ev_transform_step(self, r):
        return {"transform": r[2], "index": r[3], "seed": self.value(r[4], False),
                "result": self.value(r[5], False)}

    def _ev_transform_end(self, r):
        return {"transform": r[2], "result": self.value(r[3], False)}

    def _ev_dual_level(self, r):
        return {"level": r[2], "entered": r[3]}

    def _ev_stdout(self, r):
        return {"text": r[2]}

    def _ev_warning(self, r):
        return {"category": r[2], "message": r[3]}

    def _ev_failure(self, r):
        ev = failure_event(r[2])
        del ev["kind"], ev["line"]
        return ev

    def _ev_error(self, r):
        ev = {"type": r[2], "message": r[3], "error_kind": r[4], "node": r[5], "pass": r[6],
              "origin": r[8]}
        if r[7]:
            ev["caught"] = True
        if len(r) > 9 and r[9] is not None:    # a saved tensor changed in place (section 16)
            ev["modified"] = r[9]
        return ev

    # -- the whole trace
    def build(self, exit_code: int, check: bool) -> dict:
        rec = self.rec
        summary = rec._elided
        records = [r for w in rec._head for r in w]
        if summary is not None:
            records.append(_MIDDLE)  # where the elided middle goes
        records.extend(r for w in rec._tail for r in w)
        records.extend(rec._window)
        # The caps are applied to the records, before rendering: rendering what would be
        # cut anyway is what makes a huge run slow to finish.
        limit = max(self.lim["max_events"] - 3, 0)
        fits = records[:limit]
        events = self.render_within_cap(fits)
        if len(events) < len(records):  # a cap binds: each stretch keeps its two ends
            reason = "byte_cap" if len(events) < len(fits) else "event_cap"
            room = limit if reason == "event_cap" else self.room(events)
            events = self.keep_ends(records, events, room, summary, reason)
        at = next((i for i, e in enumerate(events) if e is self._middle), None)
        if at is not None:
            earlier = {i for e in events[:at] for i in T.defined_ids(e)}
            events[at] = self.elided(summary, events[at + 1:], earlier)
        if rec._library:
            # events and records stand index for index up to the first stretch a cap cut
            # short (keep_ends); library steps past that are left as they are
            cut = next((i for i, e in enumerate(events)
                        if e["kind"] == "elided" and e["reason"] in _CUTS), len(events))
            marked = {i for i, r in enumerate(records[:cut]) if id(r) in rec._library}
            calls = {i: rec._library_fn[id(records[i])] for i in marked
                     if id(records[i]) in rec._library_fn}
            events = trace_library.fold(events, marked, calls)
        trace = T.new_trace(rec.source, rec.filename, self.lim)
        trace["series"] = {"roots": _thin(rec._series, self.lim["series_max"]),
                           "printed": _printed_series(rec._printed, self.lim["series_max"])}
        if rec._plotted:
            trace["series"]["plotted"] = [self.figure(f) for f in rec._plotted]
        scopes = rec.scopes()
        if scopes:
            trace["scopes"] = scopes
        counts = {"passes": rec._passes, "ops": rec._ops, "elided_events":
                  sum(summary.counts.values()) if summary is not None else 0}
        events = Capper(self, trace, counts).cap(events)
        if any(e["kind"] == "elided" and e["reason"] in _CUTS for e in events):
            events = ends.defined_first(events, T.defined_ids, T._ID.match)
        counts["events"] = len(events) + 1
        events.append({"kind": "end", "line": None, "exit_code": int(exit_code),
                       "counts": counts})
        for i, e in enumerate(events):
            e["seq"] = i
            for c in e.get("carried", ()) if e["kind"] == "elided" else ():
                c["seq"] = i
        trace["truncated"] = any(e["kind"] == "elided" and e["reason"] in _CUTS
                                 for e in events)
        trace["events"] = events
        if check:
            T.validate(trace)
        # The recorder keeps this builder for dump(); a reference back would make the two a
        # cycle that only the collector frees, whose next runs then walk the whole finished
        # trace (a traced W1 repetition ran 40% slower while the previous one waited).
        self.rec = None
        return trace

    def render_within_cap(self, records: list) -> list:
        """Render records in order, in chunks, stopping once the chunks already rendered
        exceed limits.max_bytes: records beyond that would be cut by the byte cap anyway
        (Capper then trims the overshoot exactly)."""
        events, size, limit = [], 0, self.lim["max_bytes"]
        for start in range(0, len(records), 512):
            chunk = [self.render(r) for r in records[start:start + 512]]
            events.extend(chunk)
            size += list_bytes(chunk, self.total_bytes)
            if size > limit:
                break
        return events

    def render(self, r) -> dict:
        """The event of record `r`; for the elided middle's marker, a placeholder that
        build() replaces once the events after it are known."""
        if r is _MIDDLE:
            self._middle = {"kind": "elided", "line": None}
            return self._middle
        return self.event(r)

    def room(self, events: list) -> int:
        """How many events of this rendered prefix fit in limits.max_bytes (the header and
        the end take their share; Capper trims what the estimate misses)."""
        limit, size = self.lim["max_bytes"] - len(self.rec.source.encode()) - 4096, 0
        for n, e in enumerate(events):
            size += self.nbytes(e) + 18   # a comma and about 17 bytes of "seq"
            if size > limit:
                return n
        return len(events)

    def keep_ends(self, records: list, done: list, room: int, summary: Summary | None,
                  reason: str) -> list:
        """The events of `records` when only `room` fit: each stretch's beginning and end
        (runner/trace_ends.py), every left-out run one elided event followed by its errors.
        `done` holds the events of a prefix already rendered."""
        kinds = ["elided" if r is _MIDDLE else r[0] for r in records]
        keep = ends.kept(kinds, room)
        out: list = []
        gaps: list = []
        i = 0
        for start, stop in ends.left_out(keep) + [(len(records), len(records))]:
            out.extend(done[j] if j < len(done) else self.render(records[j])
                       for j in range(i, start))
            if start < stop:
                gaps.append((len(out), records[start:stop]))
                out.append(None)
            i = stop
        for pos, rest in reversed(gaps):   # a run's carried events serve every later one
            errors = [self.event(r) for r in rest if r[0] == "error"]
            later = [e for e in out[pos + 1:] if e["kind"] != "graph_freed"]  # known_freed
            out[pos:pos + 1] = [self.cut_records(rest, errors, summary, reason, later)] + errors
        return out

    def nbytes(self, event: dict) -> int:
        """Bytes of `event` as compact JSON without its `seq`, encoded once per event, so that
        Capper sizes a whole trace, and each prefix it tries, by adding numbers up, and
        dumping reuses the text (NOTE [events encoded once] in runner/trace.py).

        `elided` events are measured afresh every time: Capper.squeeze shortens their console
        text in place, the final `seq` of their carried events is not known yet, and there are
        few of them.
        """
        hit = self._texts.get(id(event))
        if hit is not None and hit[0] is event:  # the event itself keeps its id unique
            return hit[1]
        if event["kind"] == "elided":
            text = self.with_series(event)
            return len(text) if text.isascii() else len(text.encode())
        data = trace_values.encode(event, self.values_in(event), T.dump_unnumbered).encode()
        n = len(data) - T.PLACEHOLDER_BYTES
        self._texts[id(event)] = (event, n, data, data.find(T.SEQ_PLACEHOLDER))
        self._sizes[id(event)] = n
        return n

    def total_bytes(self, events: list) -> int:
        """sum(map(self.nbytes, events)), without a Python call per event already sized
        (Capper adds up the whole trace two or three times)."""
        sizes = list(map(self._sizes.get, map(id, events)))
        if None in sizes:
            sizes = [self.nbytes(e) if n is None else n for n, e in zip(sizes, events)]
        return sum(sizes)

    def event_parts(self, event: dict, out: list) -> None:
        """runner.trace.dump_event(event).encode() for an event of the finished trace, as
        pieces appended to `out` (runner.trace.dump_parts): the text nbytes() encoded, around
        the event's number (an event it never sized is encoded now)."""
        hit = self._texts.get(id(event))
        if hit is not None and hit[0] is event:
            data, at = hit[2], hit[3]
            out += (data[:at], b'"seq":%d' % event["seq"], data[at + len(T.SEQ_PLACEHOLDER):])
        else:
            out.append(self.with_series(event).encode())

    def with_series(self, obj: dict) -> str:
        """runner.trace.dump_event(obj) (an elided event, the header) with its `series`
        encoded once per series object (runner.trace.dump_spliced)."""
        series = obj.get("series")
        if not series:
            return trace_values.encode(obj, self.values_in(obj), T.dump_event)
        hit = self._series.get(id(series))
        if hit is None or hit[0] is not series:   # the entry holds it: its id is its own
            hit = self._series[id(series)] = (series, self.series_text(series))
        text = hit[1]
        return trace_values.encode(obj, self.values_in(obj),
                                 lambda o: T.dump_spliced(o, "series", text))

    def series_text(self, series) -> str:
        """runner.trace.dump_event(series): an elided event's points, or the header's
        series, whose roots are points."""
        if type(series) is list:
            return self.points_text(series)
        roots = series.get("roots")
        if not roots:
            return T.dump_event(series)
        return T.dump_spliced(series, "roots", self.points_text(roots))

    def points_text(self, points: list) -> str:
        """runner.trace.dump_event(points) of points of the loop's series: for a run of the
        recorder's points (in pass order), from the texts of all of them, made once."""
        every = self._points
        if self._point_texts is None:
            self._point_texts = trace_values.point_texts(every)
        texts, n = self._point_texts, len(points)
        if n and len(texts) == len(every):
            at = bisect.bisect_left(every, points[0][0], key=operator.itemgetter(0))
            if len(every) >= at + n and all(map(operator.is_, points, every[at:at + n])):
                return "[" + ",".join(texts[at:at + n]) + "]"
        return T.dump_event(points)

    def cut_records(self, rest: list, errors: list, summary: Summary | None,
                    reason: str = "event_cap", later: list = ()) -> dict:
        """The elided event standing for the records `rest`, which are never rendered;
        `errors` and `later` are the events after it."""
        counts: dict[str, int] = {}
        stdout: list[str] = []
        warns: list[dict] = []
        defs: dict = {}
        passes: list = []
        changed: dict = {}  # tid -> {"value": snap, "grad": snap or None}, the latest
        for r in rest:
            if r[0] == "overflow":  # events only counted past the window cap
                for k, v in r[2].items():
                    counts[k] = counts.get(k, 0) + v
                continue
            if r is _MIDDLE:  # the detail-window summary falls inside the cut: fold it in
                for k, v in summary.counts.items():
                    counts[k] = counts.get(k, 0) + v
                before = sum(map(len, stdout))
                stdout.extend(summary.stdout)
                warns.extend({"category": c, "message": m, "line": ln, "at": before + at}
                             for c, m, ln, at in summary.warnings)
                defs.update(summary.live_defs())
                continue
            kind = "elided" if r[0] == "failure" else r[0]
            counts[kind] = counts.get(kind, 0) + 1
            if kind == "stdout":
                stdout.append(r[2])
            elif kind == "warning":
                warns.append({"category": r[2], "message": r[3], "line": r[1],
                              "at": sum(map(len, stdout))})
            elif kind == "backward_begin":
                passes.append(r[2])
            elif kind == "tensor":
                defs[r[2]] = r
            elif kind == "op":
                defs[r[4]] = r
                for n in ([r[6]] if r[6] is not None else []) + [n for n, _ in r[8]]:
                    defs.setdefault(("node", n._uid), r)
            elif kind == "inplace":
                changed.setdefault(r[2], {})["value"] = r[5]
                for n in ([r[7][0]] if r[7] is not None else []) + [n for n, _ in r[8]]:
                    defs.setdefault(("node", n._uid), r)
            elif kind == "accumulate":
                changed.setdefault(r[3], {})["grad"] = r[7]
            elif kind == "grad_reset":
                changed.setdefault(r[2], {})["grad"] = r[4]
            elif kind == "optimizer_step":
                for tid, _, after in r[4]:
                    changed.setdefault(tid, {})["value"] = after
        counts.pop("error", None)  # errors stay, as events after this one
        carried = self.carry(defs, [*errors, *later], deep=False)
        with self.noting() as made:
            updates = self.cut_updates(changed, defs, carried, later)
        return self.owning({"kind": "elided", "line": None, "reason": reason,
                            "passes": [passes[0], passes[-1]] if passes else None,
                            "counts": counts, "carried": carried, "updates": updates,
                            "series": [], "stdout": "".join(stdout), "warnings": warns}, made)

    def cut_updates(self, changed: dict, defs: dict, carried: list, later: list) -> list:
        """The `updates` of a cut: the latest value and .grad of the tensors a left-out run
        changed, for the kept events after it (none follow the last run)."""
        if not later:
            return []
        present = {i for e in carried for i in T.defined_ids(e)}
        return [{"tensor": tid, **{k: (None if v is None else self.value(v))
                                   for k, v in sorted(u.items())}}
                for tid, u in changed.items() if tid not in defs or tid in present]

    def elided(self, summary: Summary, later: list, earlier: set) -> dict:
        """The `elided` event for `summary`, carrying the definitions `later` events need
        (`earlier`: the ids events before it define)."""
        carried = self.carry(summary.live_defs(), later, earlier)
        present = {i for e in carried for i in T.defined_ids(e)}
        # tensors born and gone inside the stretch (a new `params` every epoch) need no update
        with self.noting() as made:
            updates = [{"tensor": tid, **{k: (None if v is None else self.value(v))
                                          for k, v in sorted(u.items())}}
                       for tid, u in summary.updates.items()
                       if (tid not in summary.defs and tid not in summary.kept)
                       or tid in present]
        k0, k1 = summary.first_pass, summary.last_pass
        series = [p for p in self.rec._series if k0 is not None and k0 <= p[0] <= k1]
        return self.owning({"kind": "elided", "line": None, "reason": "detail_window",
                            "passes": None if k0 is None else [k0, k1],
                            "counts": dict(summary.counts), "carried": carried,
                            "updates": updates, "series": series,
                            "stdout": "".join(summary.stdout),
                            "warnings": [{"category": c, "message": m, "line": ln, "at": at}
                                         for c, m, ln, at in summary.warnings]}, made)

    def carry(self, defs: dict, later: list, earlier: set = frozenset(),
              deep: bool = True) -> list:
        """Render the defining records in `defs` of every id `later` refers to (transitively,
        unless not `deep`: runner/trace_ends.py), in their original order. An op carried only
        for the nodes it introduced (its own node is gone: Summary.live_defs) keeps the inputs
        still defined somewhere, `earlier` or among the carried; the others went with its
        graph."""
        if not defs:
            return []
        by_id = {}
        for key, r in defs.items():
            if isinstance(key, tuple):  # ("node", uid) -> the node's trace id
                by_id[self.node_ids[key[1]]] = r
            else:
                by_id[key] = r
        chosen: dict[int, tuple] = {}
        rendered: dict[int, dict] = {}
        stack: list = []
        T._ids_in(later, stack)
        while stack:
            ref = stack.pop()
            r = by_id.get(ref)
            if r is None or id(r) in chosen:
                continue
            chosen[id(r)] = r
            ev = rendered[id(r)] = self.event(r)
            if r[0] == "op" and r[6] is None and r[8]:
                ev["inputs"] = [i for i in ev["inputs"]
                                if type(i) is not str or i in earlier or i in by_id]
            if deep:
                T._ids_in(ev, stack)
        order = {id(r): i for i, r in enumerate(defs.values())}
        return [rendered[k] for k in sorted(chosen, key=lambda k: order[k])]


# record kind -> Builder._ev_<kind>, looked up once rather than once per event. Plain functions:
# bound methods kept on the builder would make it a cycle (see the end of Builder.build).
_RENDERERS = {name[4:]: f for name, f in vars(Builder).items() if name.startswith("_ev_")}
_RENDERERS.update(OPTIM_RENDERERS)  # runner/recorder_optim.py's kinds


@contextlib.contextmanager
def gc_paused():
    """Pause the cyclic garbage collector (if it runs) while building a trace.

    Building makes tens of thousands of dicts and lists, all in a tree that reference counting
    frees; meanwhile the collector would run 86 times on the 2000-op chain of
    bench/bench_trace.py, once over every object the program made, its graph included: a
    quarter to a third of the build's time. Nothing the build makes needs it.
    """
    enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if enabled:
            gc.enable()


def failure_event(message: str) -> dict:
    return {"kind": "elided", "line": None, "reason": "recorder_failure", "passes": None,
            "counts": {}, "carried": [], "updates": [], "series": [], "stdout": "",
            "warnings": [], "message": message}


# the elided reasons that mean detail was lost (a library step or the loop's middle did not)
_CUTS = frozenset({"byte_cap", "event_cap", "recorder_failure"})

# grad_reset's own words for how a .grad changed; any other in-place op is "inplace" + its name
_RESETS = frozenset({"zero_", "none", "set"})


def _id_within(tid: str | None, bound: int) -> str | None:
    """`tid` if it was among the first `bound` tensor ids given ("t0", "t1", ...), else None."""
    return tid if tid is not None and int(tid[1:]) < bound else None


def _tensor_snap(t: Tensor, cap: int) -> Snap:
    a = t._data
    fn = t.grad_fn
    return (a.tobytes() if a.size <= cap else None, a.shape, a.dtype, t._rg,
            type(fn).__name__ if fn is not None else None)




_DTYPE_NAMES: dict = {}


def _dtype_name(npdtype) -> str:
    name = _DTYPE_NAMES.get(npdtype)
    if name is None:
        name = _DTYPE_NAMES[npdtype] = repr(dtypes.of_array(np.empty(0, dtype=npdtype)))
    return name


def _repr(arr: np.ndarray, requires_grad: bool, fn_name: str | None) -> str | None:
    """PyTorch's printed form of a tensor with these contents and autograd flags (the
    engine's printer, given the array: no tensor is made for it)."""
    try:
        return format_array(arr, _dtype_name(arr.dtype), requires_grad=bool(requires_grad),
                            grad_fn_name=fn_name,
                            default_dtype=str(dtypes.get_default_dtype()))
    except Exception:  # a preview must never break a trace
        return None


def _py_value(obj, digits: int) -> dict:
    """A saved non-tensor (a scalar, a shape tuple) as a value."""
    if isinstance(obj, (tuple, list)) and all(isinstance(x, (int, float)) for x in obj):
        return {"shape": [len(obj)], "dtype": _type_name(obj),
                "data": [num(x, digits) for x in obj], "repr": repr(tuple(obj))}
    if isinstance(obj, (bool, int, float, np.number)):
        return {"shape": [], "dtype": _type_name(obj), "data": num(obj, digits),
                "repr": repr(obj)}
    return {"shape": [], "dtype": _type_name(obj), "data": None, "repr": repr(obj)[:200]}


def _type_name(obj) -> str:
    """The Python or numpy type of a saved value: a dim the engine keeps as an int or tuple
    subclass (NOTE [dims as given] in engine/ops/_dims.py) is an int or tuple."""
    return next((c.__name__ for c in type(obj).__mro__ if c.__module__ in ("builtins", "numpy")),
                type(obj).__name__)


# A number standing on its own: not the digits of a name ("fc1", "t=2" keeps its 2) nor of a
# hex address ("object at 0x7f3a..."), which would plot as noise.
_NUMBER = re.compile(r"(?<![\w.])[-+]?(?:\d+\.\d*|\.\d+|\d+)(?:[eE][-+]?\d+)?(?!\w|\.\d)")


def _printed_series(chunks: list, cap: int) -> list:
    """Numbers printed per source line: [{"line", "rows": [[numbers of one print], ...]}]."""
    by_line: dict = {}
    for line, text in chunks:
        nums = [num(float(m), 6) if any(c in m for c in ".eE") else int(m)
                for m in _NUMBER.findall(text)]
        if nums:
            by_line.setdefault(line, []).append(nums)
    return [{"line": line, "rows": _thin(rows, cap)} for line, rows in by_line.items()
            if len(rows) >= 2]


def _thin(points: list, cap: int) -> list:
    """At most `cap` points, evenly spaced, first and last kept."""
    n = len(points)
    if n <= cap or cap < 2:
        return list(points[:cap]) if cap < 2 else list(points)
    step = (n - 1) / (cap - 1)
    return [points[round(i * step)] for i in range(cap)]
