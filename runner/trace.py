"""The gradstep trace: the one definition of its shape, plus validate(), dump() and load().

A trace is what Python Tutor calls an execution trace: a header describing the program and an
append-only list of events; the picture at step i is a pure fold of ``events[:i+1]``. The spec,
taught through worked programs, is ``docs/trace-format.md``; the JSON Schema file
``runner/trace.schema.json`` is generated from :data:`SCHEMA` below
(``python -m gradstep.runner.trace``) and a test checks the two agree, so this module stays
the only place event kinds are defined.

Example:
    >>> t = new_trace("print(1)\\n", "main.py")
    >>> t["events"].append({"seq": 0, "kind": "stdout", "line": 1, "text": "1\\n"})
    >>> t["events"].append({"seq": 1, "kind": "end", "line": None, "exit_code": 0,
    ...                     "counts": {"events": 2, "passes": 0, "ops": 0, "elided_events": 0}})
    >>> validate(t)
    >>> load(dump(t)) == t
    True
"""
from __future__ import annotations

import json
import re
from typing import Any

FORMAT = "gradstep-trace"
VERSION = 1

# ---- building blocks -------------------------------------------------------------------------
# Written as JSON Schema fragments so that one literal serves the Python validator below, the
# generated trace.schema.json and the docs. Only the subset of JSON Schema that _check()
# understands is used: type, const, enum, pattern, properties, required, additionalProperties,
# items, prefixItems, anyOf, $ref, minimum.

TENSOR_ID = {"type": "string", "pattern": "^t[0-9]+$"}
NODE_ID = {"type": "string", "pattern": "^n[0-9]+$"}
LINE = {"anyOf": [{"type": "integer", "minimum": 1}, {"type": "null"}]}
NUMBER_OR_NAME = {"anyOf": [{"type": "number"}, {"type": "boolean"},
                            {"enum": ["nan", "inf", "-inf"]}]}


def _nullable(schema: dict) -> dict:
    return {"anyOf": [schema, {"type": "null"}]}


def _obj(required: dict, optional: dict | None = None) -> dict:
    """An object with exactly these properties (required ones first); extra keys are errors
    so that a typo in the recorder fails the tests instead of silently reaching the browser."""
    props = dict(required)
    props.update(optional or {})
    return {"type": "object", "properties": props, "required": sorted(required),
            "additionalProperties": False}


DEFS: dict[str, dict] = {
    # A rendered tensor value. `data` is the rounded contents as nested lists (a bare number for
    # 0-d), or null above limits.data_max_numel; `repr` is PyTorch's printed form, or null
    # above limits.repr_max_numel or once limits.repr_budget is spent.
    "value": _obj({"shape": {"type": "array", "items": {"type": "integer", "minimum": 0}},
                   "dtype": {"type": "string"},
                   "data": {},
                   "repr": _nullable({"type": "string"})}),
    # A gradient flowing along an edge: a value, plus the tensor id when the gradient is itself
    # a recorded tensor (create_graph=True makes gradients part of a graph).
    "grad": _obj({"shape": {"type": "array", "items": {"type": "integer", "minimum": 0}},
                  "dtype": {"type": "string"},
                  "data": {},
                  "repr": _nullable({"type": "string"})},
                 {"tensor": TENSOR_ID}),
    # What the picture knows about a tensor when it appears (or is re-described).
    "tensor": _obj({"id": TENSOR_ID,
                    "name": _nullable({"type": "string"}),
                    "shape": {"type": "array", "items": {"type": "integer", "minimum": 0}},
                    "dtype": {"type": "string"},
                    "requires_grad": {"type": "boolean"},
                    "is_leaf": {"type": "boolean"},
                    "grad_fn": _nullable(NODE_ID),
                    "value": {"$ref": "#/$defs/value"}},
                   {"grad_of": TENSOR_ID}),
    "saved": _obj({"name": {"type": "string"},
                   "tensor": _nullable(TENSOR_ID),
                   "value": _nullable({"$ref": "#/$defs/value"}),
                   "freed": {"type": "boolean"}}),
    # A graph node (a grad_fn). next_functions mirrors PyTorch's tuple of (node, input_nr).
    "node": _obj({"id": NODE_ID,
                  "name": {"type": "string"},
                  "next_functions": {"type": "array", "items": {
                      "type": "array", "prefixItems": [_nullable(NODE_ID), {"type": "integer"}],
                      "items": False, "minItems": 2}},
                  "saved": {"type": "array", "items": {"$ref": "#/$defs/saved"}},
                  "rule": _nullable({"type": "string"})},
                 {"variable": TENSOR_ID}),
    "jacobian": _obj({"root": TENSOR_ID, "leaf": TENSOR_ID,
                      "rows": {"type": "array", "items": {"type": "array",
                                                          "items": NUMBER_OR_NAME}},
                      "vjp": {"type": "array", "items": NUMBER_OR_NAME}}),
    "counts": {"type": "object", "additionalProperties": {"type": "integer", "minimum": 0}},
}

REF = {name: {"$ref": f"#/$defs/{name}"} for name in DEFS}
BOOL, STR, INT = {"type": "boolean"}, {"type": "string"}, {"type": "integer", "minimum": 0}
PASS = {"type": "integer", "minimum": 0}


def _list(item: dict) -> dict:
    return {"type": "array", "items": item}


# The transforms that report their steps (docs/trace-format.md, "Transforms").
TRANSFORM_APIS = ("jacrev", "jacfwd", "hessian", "jacobian", "vmap", "jvp", "vjp")

# ---- the event kinds: the only place they are defined -----------------------------------------
# kind -> (required fields, optional fields); every event also has seq, kind and line.
# docs/trace-format.md has a section with an example for each.
KINDS: dict[str, tuple[dict, dict]] = {
    "tensor": ({"tensor": REF["tensor"], "how": STR, "grad_mode": BOOL}, {}),
    "op": ({"op": STR, "inputs": _list({"anyOf": [TENSOR_ID, NUMBER_OR_NAME]}),
            "output": REF["tensor"],
            "node": _nullable(REF["node"]), "new_nodes": _list(REF["node"]),
            "grad_mode": BOOL, "in_backward": BOOL},
           {"by": NODE_ID, "tangent": REF["value"], "recompute": {"const": True}}),
    "dual_level": ({"level": INT, "entered": BOOL}, {}),
    # exit: set by leaving a `with` block (the mode it restores), not by entering one
    "grad_mode": ({"enabled": BOOL, "mode": STR}, {"exit": BOOL}),
    "inplace": ({"tensor": TENSOR_ID, "op": STR, "version": INT, "value": REF["value"],
                 "grad_fn": _nullable(NODE_ID), "node": _nullable(REF["node"]),
                 "new_nodes": _list(REF["node"])}, {}),
    "backward_begin": ({"pass": PASS, "api": {"enum": ["backward", "grad"]},
                        "roots": _list(TENSOR_ID), "root_values": _list(REF["value"]),
                        "seeds": _list(REF["value"]), "implicit_seed": BOOL,
                        "retain_graph": BOOL, "create_graph": BOOL,
                        "inputs": _nullable(_list(TENSOR_ID)),
                        "leaves": _list(TENSOR_ID),
                        "jacobian": _nullable(_list(REF["jacobian"]))},
                       # why `jacobian` is null (docs/trace-format.md, section 5)
                       {"jacobian_note": {"enum": ["late_pass", "graph_too_big", "too_large",
                                                   "freed", "no_leaves", "failed",
                                                   "program_code"]}}),
    "node_apply": ({"pass": PASS, "node": NODE_ID, "name": STR, "rule": _nullable(STR),
                    "grads_in": _list(_nullable(REF["grad"])),
                    "grads_out": _list(_nullable(REF["grad"])),
                    "to": _list(_nullable(NODE_ID))},
                   # the node's local Jacobian, one entry per grads_out entry: for each element
                   # j of that input, the non-zero [i, ∂out[i]/∂input[j]] (section 16)
                   {"local": _list(_nullable(_list(_list({
                       "type": "array", "prefixItems": [INT, NUMBER_OR_NAME], "items": False,
                       "minItems": 2}))))}),
    "accumulate": ({"pass": PASS, "tensor": TENSOR_ID, "node": _nullable(NODE_ID),
                    "before": _nullable(REF["value"]), "added": REF["value"],
                    "after": REF["value"]}, {}),
    "graph_freed": ({"pass": PASS, "nodes": _list(NODE_ID)}, {}),
    "backward_end": ({"pass": PASS, "api": {"enum": ["backward", "grad"]}}, {}),
    "grad_reset": ({"tensor": TENSOR_ID, "how": {"enum": ["zero_", "none", "set", "inplace"]},
                    "grad": _nullable(REF["value"])}, {"op": STR}),
    # a hook the program registered ran (runner/recorder_hooks.py)
    "hook": ({"pass": _nullable(PASS), "hook": {"enum": ["tensor", "node_pre", "node",
                                                         "module_backward_pre",
                                                         "module_backward", "forward_pre",
                                                         "forward", "multi_grad"]},
              "tensors": _list(TENSOR_ID), "node": _nullable(NODE_ID),
              "module": _nullable(STR), "fn": STR,
              "received": _list(_nullable(REF["grad"])),
              "returned": _nullable(_list(_nullable(REF["grad"])))}, {}),
    "optimizer_step": ({"optimizer": STR, "lr": _nullable({"type": "number"}),
                        "params": _list(_obj({"tensor": TENSOR_ID, "before": REF["value"],
                                              "after": REF["value"]}))},
                       {"momentum": {"type": "number"}}),
    # docs/trace-format.md, "Optimizer steps, one parameter at a time"
    "optimizer_update": ({"optimizer": STR, "tensor": TENSOR_ID, "index": INT, "count": INT,
                          "group": INT, "lr": _nullable(NUMBER_OR_NAME),
                          "hyper": {"type": "object", "additionalProperties": {"anyOf": [
                              NUMBER_OR_NAME, _list(NUMBER_OR_NAME)]}},
                          "scheduler": _nullable(_obj({"name": STR,
                                                       "epoch": {"type": "integer"}})),
                          "grad": _nullable(REF["value"]), "before": REF["value"],
                          "after": REF["value"],
                          "state_before": _list(_obj({"name": STR, "value": REF["value"]})),
                          "state": _list(_obj({"name": STR, "value": REF["value"]})),
                          "terms": _list(_obj({"name": STR}, {"value": REF["value"],
                                                              "number": NUMBER_OR_NAME}))}, {}),
    "zero_grad": ({"optimizer": STR, "set_to_none": BOOL,
                   "params": _list(_obj({"tensor": TENSOR_ID, "had_grad": BOOL}))}, {}),
    "lr_step": ({"scheduler": STR, "epoch": {"type": "integer"},
                 "before": _list(NUMBER_OR_NAME), "after": _list(NUMBER_OR_NAME)}, {}),
    "transform_begin": ({"transform": INT, "api": {"enum": list(TRANSFORM_APIS)},
                         "mode": {"enum": ["rows", "columns", "batch", "product"]},
                         "in_shapes": _list(_list(INT)), "out_shapes": _list(_list(INT)),
                         "steps": INT, "rows": INT, "cols": _nullable(INT),
                         "jacobian": _nullable(_list(_list(NUMBER_OR_NAME)))}, {}),
    "transform_step": ({"transform": INT, "index": INT, "seed": REF["value"],
                        "result": REF["value"]}, {}),
    "transform_end": ({"transform": INT, "result": REF["value"]}, {}),
    "stdout": ({"text": STR}, {}),
    "warning": ({"category": STR, "message": STR}, {}),
    "error": ({"type": STR, "message": STR,
               "error_kind": {"enum": ["exception", "refused", "limit", "crash"]},
               "node": _nullable(NODE_ID), "pass": _nullable(PASS)},
              {"caught": BOOL, "origin": {"enum": ["pytorch", "python", "gradstep"]},
               # the saved tensor an in-place op changed, and the bump that did (section 16)
               "modified": _obj({"tensor": _nullable(TENSOR_ID), "saved": _nullable(STR),
                                 "expected": INT, "version": INT,
                                 "by": _nullable(_obj({"tensor": TENSOR_ID,
                                                       "version": INT}))})}),
    "elided": ({"reason": {"enum": ["detail_window", "library", "byte_cap", "event_cap",
                                    "recorder_failure"]},
                "passes": _nullable({"type": "array", "prefixItems": [PASS, PASS],
                                     "items": False, "minItems": 2}),
                "counts": REF["counts"],
                "carried": _list({"type": "object"}),
                "updates": _list(_obj({"tensor": TENSOR_ID},
                                      {"value": REF["value"],
                                       "grad": _nullable(REF["value"])})),
                "series": _list({"type": "array", "prefixItems": [PASS, NUMBER_OR_NAME],
                                 "items": False, "minItems": 2}),
                "stdout": STR,
                "warnings": _list(_obj({"category": STR, "message": STR, "line": LINE},
                                              {"at": INT}))},
               {"message": STR,
                # a library function's result (clip_grad_norm_): runner/trace_library.py
                "call": _obj({"fn": STR}, {"total": REF["value"], "scale": REF["value"]})}),
    "end": ({"exit_code": {"type": "integer"}, "counts": REF["counts"]}, {}),
}

# The kinds whose events describe graph detail; these are what elision and the byte cap drop.
DETAIL_KINDS = frozenset({"tensor", "op", "grad_mode", "inplace", "backward_begin", "node_apply",
                          "accumulate", "graph_freed", "backward_end", "grad_reset",
                          "optimizer_step", "optimizer_update", "zero_grad", "lr_step",
                          "hook"})


def _event_schema(kind: str) -> dict:
    required, optional = KINDS[kind]
    base = {"seq": INT, "kind": {"const": kind}, "line": LINE}
    base.update(required)
    return _obj(base, optional)


LIMITS_SCHEMA = _obj({"max_bytes": INT, "max_events": INT, "detail_head": INT,
                      "detail_tail": INT, "data_max_numel": INT, "repr_max_numel": INT,
                      "repr_budget": INT, "jacobian_max_numel": INT, "jacobian_max_nodes": INT,
                      "series_max": INT, "digits": INT})

_POINT = {"type": "array", "prefixItems": [NUMBER_OR_NAME, NUMBER_OR_NAME], "items": False,
          "minItems": 2}
_WORDS = {"anyOf": [{"type": "string"}, {"type": "null"}]}
SERIES_SCHEMA = _obj({
    "roots": _list({"type": "array", "prefixItems": [PASS, NUMBER_OR_NAME], "items": False,
                    "minItems": 2}),
    "printed": _list(_obj({"line": LINE, "rows": _list(_list(NUMBER_OR_NAME))})),
}, {
    # figures drawn with matplotlib.pyplot (runner/pyplot.py), when the program drew any
    "plotted": _list(_obj({"title": _WORDS, "xlabel": _WORDS, "ylabel": _WORDS,
                           "lines": _list(_obj({"label": _WORDS, "rows": _list(_POINT)}))})),
})

# A call of an nn.Module (runner/recorder_scopes.py): the ids made during it are
# t<t[0]>..t<t[1] - 1> and n<n[0]>..n<n[1] - 1>.
_RANGE = {"type": "array", "prefixItems": [INT, INT], "items": False}
# `pass`: the backward passes begun before the call; `at`: the loop variable's value at a
# call from a `for` loop of the program ("t=2"), or a recurrent layer's time step; `step`:
# true for such a time step (a scope inside the layer's call, not a call of its own).
SCOPES_SCHEMA = _list(_obj({"path": STR, "type": STR, "extra": STR, "user": BOOL,
                            "parent": _nullable(STR), "t": _RANGE, "n": _RANGE},
                           {"pass": INT, "at": STR, "step": BOOL,
                            "recompute": {"const": True}}))

SCHEMA: dict[str, Any] = {
    "$schema": "https://json-schema.org/draft/2020-12/schema",
    "$id": "gradstep-trace-v1",
    "title": "gradstep trace, version 1 (see docs/trace-format.md)",
    **_obj({"format": {"const": FORMAT},
            "version": {"const": VERSION},
            "program": _obj({"source": STR, "filename": STR}),
            "limits": LIMITS_SCHEMA,
            "truncated": BOOL,
            "series": SERIES_SCHEMA,
            "events": _list({"anyOf": [{"$ref": f"#/$defs/event_{k}"} for k in KINDS]})},
           {"scopes": SCOPES_SCHEMA}),
    "$defs": {**DEFS, **{f"event_{k}": _event_schema(k) for k in KINDS}},
}


# The documented defaults (docs/trace-format.md, "Limits"); the recorder takes overrides.
DEFAULT_LIMITS: dict[str, int] = {
    "max_bytes": 2_000_000,      # the byte cap on dump(trace); detail is dropped to stay under
    "max_events": 20_000,        # events kept before the byte cap even gets a say
    "detail_head": 3,            # backward passes kept in full at the start ...
    "detail_tail": 2,            # ... and at the end; the middle becomes one `elided` event
    "data_max_numel": 64,        # values with more elements carry data: null
    "repr_max_numel": 1000,      # ... and repr: null above this
    "repr_budget": 200,          # distinct reprs rendered per trace; later ones are null
    "jacobian_max_numel": 16,    # J is computed when root and leaf each have <= this many
    "jacobian_max_nodes": 256,   # ... and the graph has at most this many nodes
    "series_max": 5000,          # points per series; longer series are evenly thinned
    "digits": 6,                 # significant digits kept in data
}


class TraceError(ValueError):
    """The trace breaks the format; the message names the event (by seq) and the field."""


# ---- a small JSON Schema checker for the subset used above -----------------------------------
# The runner must validate without optional dependencies; the tests cross-check it against the
# jsonschema package on every fixture.

_TYPES = {"object": dict, "array": list, "string": str, "boolean": bool, "null": type(None)}


def _type_ok(value: Any, name: str) -> bool:
    if name == "integer":
        return isinstance(value, int) and not isinstance(value, bool)
    if name == "number":
        return isinstance(value, (int, float)) and not isinstance(value, bool)
    return isinstance(value, _TYPES[name])


def _check(value: Any, schema: dict | bool, where: str) -> str | None:
    """Return None if `value` matches `schema`, else a message naming the first bad path."""
    if schema is True or schema == {}:
        return None
    if schema is False:
        return f"{where}: unexpected item"
    if "$ref" in schema:
        return _check(value, SCHEMA["$defs"][schema["$ref"].rsplit("/", 1)[1]], where)
    if "anyOf" in schema:
        alts = schema["anyOf"]
        if isinstance(value, dict) and alts and all(
                s.get("$ref", "").startswith("#/$defs/event_") for s in alts):
            # an event: judge it by its own kind, so the message is about the right fields
            ref = f"#/$defs/event_{value.get('kind')}"
            if not any(s["$ref"] == ref for s in alts):
                return f"{where}: unknown kind {value.get('kind')!r}"
            return _check(value, {"$ref": ref}, where)
        errors = [_check(value, s, where) for s in alts]
        return None if None in errors else min(errors, key=len)
    if "const" in schema and value != schema["const"]:
        return f"{where}: expected {schema['const']!r}, got {value!r}"
    if "enum" in schema and value not in schema["enum"]:
        return f"{where}: {value!r} is not one of {schema['enum']}"
    if "type" in schema and not _type_ok(value, schema["type"]):
        return f"{where}: expected {schema['type']}, got {type(value).__name__}"
    if "minimum" in schema and value < schema["minimum"]:
        return f"{where}: {value} < {schema['minimum']}"
    if "pattern" in schema and not re.search(schema["pattern"], value):
        return f"{where}: {value!r} does not match {schema['pattern']}"
    if isinstance(value, dict):
        return _check_object(value, schema, where)
    if isinstance(value, list):
        return _check_array(value, schema, where)
    return None


def _check_object(value: dict, schema: dict, where: str) -> str | None:
    props = schema.get("properties", {})
    for key in schema.get("required", ()):
        if key not in value:
            return f"{where}: missing {key!r}"
    extra = schema.get("additionalProperties", True)
    for key, item in value.items():
        sub = props.get(key, extra)
        if sub is False:
            return f"{where}: unexpected field {key!r}"
        err = _check(item, sub, f"{where}.{key}")
        if err:
            return err
    return None


def _check_array(value: list, schema: dict, where: str) -> str | None:
    prefix = schema.get("prefixItems", [])
    if len(value) < schema.get("minItems", 0):
        return f"{where}: expected at least {schema['minItems']} items"
    for i, item in enumerate(value):
        sub = prefix[i] if i < len(prefix) else schema.get("items", True)
        err = _check(item, sub, f"{where}[{i}]")
        if err:
            return err
    return None


# ---- semantic checks the schema cannot express -----------------------------------------------

def _ids_in(obj: Any, out: list) -> None:
    """Collect every tensor/node id string referenced anywhere inside `obj`."""
    stack = [obj]
    while stack:  # iterative: carried events can nest deeply enough to matter
        item = stack.pop()
        if isinstance(item, dict):
            stack.extend(v for k, v in item.items() if k not in _NO_IDS)
        elif isinstance(item, list):
            stack.extend(item)
        elif isinstance(item, str) and _ID.match(item):
            out.append(item)


_ID = re.compile(r"^[tn][0-9]+$")
# Free text that may happen to look like an id ("t1" printed by the program, a variable named n0).
_TEXT_KEYS = frozenset({"text", "repr", "message", "name", "stdout", "op", "how", "rule", "dtype",
                        "mode", "category", "type", "source", "filename", "optimizer"})


# ... and fields that hold only numbers (a value's data, J's rows, the local derivatives, a
# loss series): walking their every number was most of the walk over a loop's events
_NO_IDS = _TEXT_KEYS | {"data", "rows", "vjp", "local", "series"}


def defined_ids(event: dict) -> list[str]:
    """The tensor and node ids an event introduces (the fold adds them to the picture)."""
    kind = event["kind"]
    if kind == "tensor":
        return [event["tensor"]["id"]]
    if kind == "op":
        ids = [event["output"]["id"]]
        if event["node"] is not None:
            ids.append(event["node"]["id"])
        ids.extend(n["id"] for n in event["new_nodes"])
        return ids
    if kind == "inplace":
        ids = [event["node"]["id"]] if event["node"] is not None else []
        return ids + [n["id"] for n in event["new_nodes"]]
    if kind == "elided":
        return [i for e in event["carried"] for i in defined_ids(e)]
    return []


def _semantic(trace: dict) -> str | None:
    events = trace["events"]
    known: set[str] = set()
    for i, ev in enumerate(events):
        if ev["seq"] != i:
            return f"events[{i}]: seq is {ev['seq']}, expected {i}"
        for j, carried in enumerate(ev.get("carried", ()) if ev["kind"] == "elided" else ()):
            where = f"events[{i}].carried[{j}]"
            err = _check(carried, {"anyOf": [{"$ref": f"#/$defs/event_{k}"}
                                             for k in ("tensor", "op", "inplace")]}, where)
            if err:
                return err
            # carried events are applied in order, so each may use only what came before
            carried_refs: list[str] = []
            _ids_in(carried, carried_refs)
            own = defined_ids(carried)
            bad = [r for r in carried_refs if r not in known and r not in own]
            if bad:
                return f"{where} ({carried['kind']}): refers to {bad[0]} before it is defined"
            known.update(own)
        new = defined_ids(ev)
        refs: list[str] = []
        _ids_in(ev, refs)
        # an event may refer to the ids it defines itself (an op's output names its grad_fn)
        bad = [r for r in refs if r not in known and r not in new]
        if bad:
            return f"events[{i}] ({ev['kind']}): refers to {bad[0]} before it is defined"
        known.update(new)
    if not events or events[-1]["kind"] != "end":
        return "the last event must be 'end'"
    if any(ev["kind"] == "end" for ev in events[:-1]):
        return "'end' may only be the last event"
    return None


def validate(trace: Any) -> None:
    """Raise TraceError unless `trace` is a well-formed version-1 trace.

    Checks the schema (the same one as trace.schema.json) and what a schema cannot say: seq is
    the event's index, every id is defined by an earlier (or the same) event, `end` is last.
    """
    err = _check(trace, SCHEMA, "trace")
    if err is None:
        err = _semantic(trace)
    if err is not None:
        raise TraceError(err)


def new_trace(source: str, filename: str, limits: dict | None = None) -> dict:
    """An empty trace header (no events yet)."""
    return {"format": FORMAT, "version": VERSION,
            "program": {"source": source, "filename": filename},
            "limits": {**DEFAULT_LIMITS, **(limits or {})},
            "truncated": False, "series": {"roots": [], "printed": []}, "events": []}


# check_circular=False: a trace is a tree of dicts and lists built by the recorder, and the
# check costs a tenth of encoding it (a cycle would still fail, with RecursionError).
_ENCODER = json.JSONEncoder(sort_keys=True, separators=(",", ":"), ensure_ascii=False,
                            allow_nan=False, check_circular=False)


def dump_event(event: Any) -> str:
    """One event (or any part of one) in canonical form: sorted keys, no spaces, UTF-8
    text, no NaN literals."""
    return _ENCODER.encode(event)


# NOTE [events encoded once]
# The recorder must know an event's size before it can number it (the byte cap decides which
# events stay, and `seq` is their index afterwards), and encoding is most of what dumping
# costs. So it encodes each event once, with the placeholder `"seq":-1`, sizes it by that
# text less the placeholder, and dump_parts() later writes the real number in its place,
# joining the UTF-8 pieces of all events once. The placeholder is found by its text: in
# canonical JSON `"seq":` can only be a key (a quote inside a string is escaped as \"), and
# only `elided` events nest events, which have `seq` too; the recorder encodes those when
# dumping, since their carried events are numbered last.

_SEQ_PLACEHOLDER = '"seq":-1'
PLACEHOLDER_BYTES = len("," + _SEQ_PLACEHOLDER)  # what the placeholder adds to the text
SEQ_PLACEHOLDER = _SEQ_PLACEHOLDER.encode()        # ... and as UTF-8


def dump_unnumbered(event: dict) -> str:
    """dump_event() of `event` (which has no "seq" yet, and nests no events) with a
    placeholder for its seq, for number_event() to fill in.

        >>> text = dump_unnumbered({"kind": "stdout", "line": 1, "text": "hi"})
        >>> text
        '{"kind":"stdout","line":1,"seq":-1,"text":"hi"}'
        >>> number_event(text, 7)
        '{"kind":"stdout","line":1,"seq":7,"text":"hi"}'
    """
    return _ENCODER.encode({**event, "seq": -1})


def number_event(text: str, seq: int) -> str:
    """dump_event() of the event that dump_unnumbered() encoded as `text`, numbered `seq`."""
    return text.replace(_SEQ_PLACEHOLDER, f'"seq":{seq}', 1)


def dump_spliced(obj: dict, key: str, text: str) -> str:
    """dump_event(obj) given `text`, the dump_event() of obj[key], without encoding that
    value again: canonical JSON sorts the keys, so the keys before `key` and those after it
    are encoded apart and the text goes between them.

        >>> dump_spliced({"b": 1, "series": [[0, 2.5]], "z": "x"}, "series", "[[0,2.5]]")
        '{"b":1,"series":[[0,2.5]],"z":"x"}'
    """
    before = _ENCODER.encode({k: v for k, v in obj.items() if k < key})[:-1]
    after = _ENCODER.encode({k: v for k, v in obj.items() if k > key})[1:]
    return (before + ("," if len(before) > 1 else "") + _ENCODER.encode(key) + ":" + text
            + ("," if len(after) > 1 else "") + after)


def dump(trace: dict, event_text=dump_event, header_text=dump_event) -> bytes:
    """Canonical bytes: sorted keys, compact, one event per line (so fixture diffs read well).

    The same trace always gives the same bytes; load(dump(t)) == t. `event_text` must give
    dump_event()'s text for each event, and `header_text` for the header; the recorder passes
    ones that reuse the text it sized them with (NOTE [events encoded once]).
    """
    header = {k: v for k, v in trace.items() if k != "events"}
    body = ",\n".join(map(event_text, trace["events"]))
    head = header_text(header)
    # "events" sorts before every other header key, so it opens the object.
    events = '"events":[\n' + body + "\n]" if body else '"events":[]'
    sep = "," if header else ""
    return ("{" + events + sep + head[1:] + "\n").encode("utf-8")


def dump_parts(trace: dict, event_parts, header_text=dump_event) -> bytes:
    """dump(trace), given each event's UTF-8 text in pieces: `event_parts(event, out)`
    appends to the list `out` bytes that together are dump_event(event).encode(). The whole
    trace is then joined at once, not copied once per step (NOTE [events encoded once]).

        >>> t = new_trace("", "main.py")
        >>> t["events"] = [{"seq": 0, "kind": "end", "line": None, "exit_code": 0, "counts": {}}]
        >>> dump_parts(t, lambda e, out: out.append(dump_event(e).encode())) == dump(t)
        True
    """
    events = trace["events"]
    # "events" sorts before every other header key, so it opens the object.
    out = [b'{"events":[\n']
    for event in events:
        event_parts(event, out)
        out.append(b",\n")
    if events:
        out[-1] = b"\n]"
    else:
        out[0] = b'{"events":[]'
    header = {k: v for k, v in trace.items() if k != "events"}
    if header:
        out.append(b",")
    out.append(header_text(header)[1:].encode("utf-8"))
    out.append(b"\n")
    return b"".join(out)


def load(data: bytes | str) -> dict:
    """Parse trace bytes (no validation; call validate())."""
    if isinstance(data, bytes):
        data = data.decode("utf-8")
    return json.loads(data)


def schema_json() -> str:
    """The text of runner/trace.schema.json."""
    return json.dumps(SCHEMA, indent=1, sort_keys=True, ensure_ascii=False) + "\n"


if __name__ == "__main__":  # regenerate the schema file: python -m gradstep.runner.trace
    from pathlib import Path
    Path(__file__).with_name("trace.schema.json").write_text(schema_json(), encoding="utf-8")
