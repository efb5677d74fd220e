"""A fast yes/no check of a trace against its schema, for every answer the pool receives.

`runner.trace.validate` walks the schema for each value and builds a path for each field on
the way, so that a failure names where it is; that costs about 0.6 ms per KB of trace, too
much for every run of a server. `is_valid` compiles the same schema (`runner.trace.SCHEMA`,
the one literal) once into nested predicates that only say yes or no, then runs the semantic
checks. It never accepts what `validate` refuses (the tests compare the two on every fixture
and on broken copies of them); on a no, `validate` is run to say why.

Example:
    >>> is_valid({"format": "gradstep-trace"})
    False
"""
from __future__ import annotations

import re
from typing import Any
from collections.abc import Callable

from gradstep.runner import trace as trace_format

Predicate = Callable[[Any], bool]
_DEFS: dict[str, Predicate] = {}


def _yes(value) -> bool:
    return True


def _no(value) -> bool:
    return False


def _ref(name: str) -> Predicate:
    def check(value) -> bool:        # compiled on first use: definitions refer to each other
        pred = _DEFS.get(name)
        if pred is None:
            pred = _DEFS[name] = _compile(trace_format.SCHEMA["$defs"][name])
        return pred(value)
    return check


def _events(alts: list) -> Predicate:
    """An event is judged by its own kind, as runner.trace._check does."""
    table = {s["$ref"].rsplit("/", 1)[1][len("event_"):]: _ref(s["$ref"].rsplit("/", 1)[1])
             for s in alts}

    def check(value) -> bool:
        if not isinstance(value, dict):
            return False
        kind = value.get("kind")
        pred = table.get(kind) if isinstance(kind, str) else None
        return pred is not None and pred(value)
    return check


_PY_TYPES = {"object": dict, "array": list, "string": str, "boolean": bool,
             "null": type(None)}


def _compile(schema) -> Predicate:
    if schema is True or schema == {}:
        return _yes
    if schema is False:
        return _no
    if "$ref" in schema:
        return _ref(schema["$ref"].rsplit("/", 1)[1])
    if "anyOf" in schema:
        alts = schema["anyOf"]
        if alts and all(s.get("$ref", "").startswith("#/$defs/event_") for s in alts):
            return _events(alts)
        preds = [_compile(s) for s in alts]
        return lambda value: any(p(value) for p in preds)
    kind = schema.get("type")
    rest = set(schema) - {"type", "properties", "required", "additionalProperties",
                          "prefixItems", "items", "minItems"}
    # the common shapes, each one function (exact types: JSON gives no subclasses, and a
    # stricter answer here only sends the trace to the full validator)
    if kind == "object" and not rest:
        return _object(schema)
    if kind == "array" and not rest:
        return _array(schema)
    if kind in _PY_TYPES and not rest and kind not in ("object", "array"):
        exact = _PY_TYPES[kind]
        return lambda v: type(v) is exact
    if kind == "integer" and rest <= {"minimum"}:
        low = schema.get("minimum")
        if low is None:
            return lambda v: type(v) is int
        return lambda v: type(v) is int and v >= low
    if kind == "string" and rest == {"pattern"}:
        search = re.compile(schema["pattern"]).search
        return lambda v: type(v) is str and search(v) is not None
    return _general(schema)


def _general(schema: dict) -> Predicate:
    checks: list[Predicate] = []
    if "const" in schema:
        const = schema["const"]
        checks.append(lambda v: v == const)
    if "enum" in schema:
        enum = schema["enum"]
        checks.append(lambda v: v in enum)
    if "type" in schema:
        name = schema["type"]
        checks.append(lambda v: trace_format._type_ok(v, name))
    if "minimum" in schema:
        low = schema["minimum"]
        checks.append(lambda v: not v < low)
    if "pattern" in schema:
        search = re.compile(schema["pattern"]).search
        checks.append(lambda v: search(v) is not None)
    obj, arr = _object(schema, exact=False), _array(schema, exact=False)
    checks.append(lambda v: obj(v) if isinstance(v, dict) else
                  arr(v) if isinstance(v, list) else True)
    return lambda value: all(c(value) for c in checks)


def _object(schema: dict, exact: bool = True) -> Predicate:
    """What runner.trace._check_object says of a dict."""
    props = {k: _compile(s) for k, s in schema.get("properties", {}).items()}
    required = tuple(schema.get("required", ()))
    extra_schema = schema.get("additionalProperties", True)
    extra = None if extra_schema is False else _compile(extra_schema)

    def check(value) -> bool:
        if exact and type(value) is not dict:
            return False
        for key in required:
            if key not in value:
                return False
        for key, item in value.items():
            pred = props.get(key, extra)
            if pred is None or not pred(item):
                return False
        return True
    return check


def _array(schema: dict, exact: bool = True) -> Predicate:
    """What runner.trace._check_array says of a list."""
    prefix = [_compile(s) for s in schema.get("prefixItems", [])]
    items_schema = schema.get("items", True)
    items = None if items_schema is False else _compile(items_schema)
    min_items = schema.get("minItems", 0)

    def check(value) -> bool:
        if exact and type(value) is not list:
            return False
        if len(value) < min_items:
            return False
        if not prefix:
            if items is None:
                return not value
            if items is _yes:
                return True
            for item in value:
                if not items(item):
                    return False
            return True
        for i, item in enumerate(value):
            pred = prefix[i] if i < len(prefix) else items
            if pred is None or not pred(item):
                return False
        return True
    return check


_ROOT: list[Predicate] = []


def is_valid(trace: Any) -> bool:
    """Whether runner.trace.validate(trace) would pass, in a fraction of its time."""
    if not _ROOT:
        _ROOT.append(_compile({k: v for k, v in trace_format.SCHEMA.items() if k != "$defs"}))
    try:
        return _ROOT[0](trace) and trace_format._semantic(trace) is None
    except (TypeError, KeyError, RecursionError):   # a value of a type the schema never has
        return False
