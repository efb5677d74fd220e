"""runner.trace_check.is_valid never accepts a trace runner.trace.validate refuses, and
accepts every valid fixture: checked on the fixtures and on thousands of broken copies."""
import copy
import json
import pathlib
import random

import pytest

from gradstep.runner import trace as trace_format
from gradstep.runner.trace_check import is_valid

FIXTURES = sorted((pathlib.Path(__file__).parents[1] / "fixtures" / "traces").glob("*.json"))


def _valid(trace) -> bool:
    try:
        trace_format.validate(trace)
        return True
    except (trace_format.TraceError, TypeError, KeyError):
        return False


def _paths(obj, prefix=()):
    stack = [(obj, prefix)]
    while stack:
        value, path = stack.pop()
        items = value.items() if isinstance(value, dict) else (
            enumerate(value) if isinstance(value, list) else ())
        for key, item in items:
            yield path + (key,)
            stack.append((item, path + (key,)))


def _broken(trace, rng):
    """A copy with one field deleted or replaced by a value of another type."""
    out = copy.deepcopy(trace)
    path = rng.choice(list(_paths(out)))
    parent = out
    for key in path[:-1]:
        parent = parent[key]
    change = rng.choice(["delete", "x", 7, None, [1], -1, True, {"kind": "end"}, 1.5])
    if change == "delete":
        del parent[path[-1]]
    else:
        parent[path[-1]] = change
    return out


@pytest.mark.parametrize("path", FIXTURES, ids=lambda p: p.stem)
def test_fast_check_agrees_on_every_fixture(path):
    trace = json.loads(path.read_text())
    assert is_valid(trace) == _valid(trace)


@pytest.mark.parametrize("path", FIXTURES, ids=lambda p: p.stem)
def test_fast_check_never_accepts_a_broken_trace(path):
    trace, rng = json.loads(path.read_text()), random.Random(path.stem)
    refused = 0
    for _ in range(200):
        broken = _broken(trace, rng)
        if not _valid(broken):
            refused += 1
            assert not is_valid(broken)
    assert refused > 50         # the mutations do break traces
