"""Training loops' traces pinned by digest: speeding up the recorder must not change a byte.

Each program of tests/fixtures/loop_programs runs traced in-process, as the golden traces do
(tests/fixtures/traces/regen.py), and the sha256 of its canonical trace (`trace.dump`, the
bytes the sandbox sends) must be the one in `digests.json`. The loops are long enough that
their middle iterations are summarised, which is where the recorder does the most work it
later throws away. If a change of the trace is intended, rewrite the digests with
`python tests/runner/test_loop_trace_digests.py` and say why in the commit.
"""
from __future__ import annotations

import hashlib
import importlib.util
import json
import sys
from pathlib import Path

import pytest

FIXTURES = Path(__file__).resolve().parents[1] / "fixtures"
PROGRAMS = FIXTURES / "loop_programs"
DIGESTS = PROGRAMS / "digests.json"


def _regen():
    spec = importlib.util.spec_from_file_location("trace_regen", FIXTURES / "traces" / "regen.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


regen = _regen()


def digest(name: str, watched: bool = False) -> tuple[str, dict]:
    """(sha256 of the canonical trace, the trace) of loop program `name` (`watched`: through
    the sandbox's limit watch)."""
    source = (PROGRAMS / f"{name}.py").read_text(encoding="utf-8")
    trace, _, code = regen.record_program(source, "main.py", watched=watched)
    assert code == 0
    return hashlib.sha256(regen.T.dump(trace)).hexdigest(), trace


def names() -> list[str]:
    return sorted(p.stem for p in PROGRAMS.glob("*.py"))


def test_five_loops_are_pinned():
    assert names() == sorted(json.loads(DIGESTS.read_text(encoding="utf-8")))
    assert len(names()) == 5


@pytest.mark.parametrize("name", names())
def test_loop_trace_is_byte_identical(name):
    got, trace = digest(name)
    # the pin is only worth something if the loop was long enough to be summarised
    assert any(e["kind"] == "elided" for e in trace["events"])
    assert got == json.loads(DIGESTS.read_text(encoding="utf-8"))[name], (
        f"the trace of loop_programs/{name}.py changed; if intended, rewrite digests.json")


@pytest.mark.parametrize("name", names())
def test_loop_trace_is_the_same_through_the_limit_watch(name):
    # In the sandbox the limit watch stands between the engine and the recorder, and the
    # recorder swaps its light methods in and out of the watch (NOTE [light routing]): the
    # bytes must not depend on which of the two the engine calls.
    got, _ = digest(name, watched=True)
    assert got == json.loads(DIGESTS.read_text(encoding="utf-8"))[name]


if __name__ == "__main__":
    table = {name: digest(name)[0] for name in (sys.argv[1:] or names())}
    DIGESTS.write_text(json.dumps(table, indent=2, sort_keys=True) + "\n", encoding="utf-8")
    print(json.dumps(table, indent=2))
