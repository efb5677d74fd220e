"""Every golden case (tests/oracle, tests/golden) traced through the sandbox gives a trace the
validator accepts: schema, and no id named before an event defines it.

The golden programs are the widest corpus of autograd the project has, and they once showed
three ways a trace named things too early: a node behind a new node (an in-place op on a view
links a CopySlices no op event reports), a tensor that got its id after the event describing
its node (a wrapped number read through `_saved_other`), and a leaf's AccumulateGrad whose
introducing op fell inside an elided stretch of a training loop.
"""
import sys
from pathlib import Path

import pytest

from gradstep.runner import Limits, WorkerPool
from gradstep.runner import trace as T

TESTS = Path(__file__).resolve().parents[1]
if str(TESTS) not in sys.path:
    sys.path.insert(0, str(TESTS))

import fidelity  # noqa: E402

CASES = fidelity.all_cases()


@pytest.fixture(scope="module")
def roomy_pool():
    # the default limits, as `gradstep trace` runs a program; a long wall limit for a busy
    # machine (what is checked is the trace, not the time)
    with WorkerPool(size=1, limits=Limits(wall_seconds=120)) as p:
        yield p


@pytest.mark.parametrize("case", CASES, ids=[f"{c.parent.parent.name}/{c.stem}" for c in CASES])
def test_trace_of_case_is_valid(roomy_pool, case):
    result = roomy_pool.run(case.read_text(encoding="utf-8"), filename="main.py", trace=True)
    assert result.trace is not None, result.stderr[-500:]
    T.validate(result.trace)
    # what the browser receives is the same trace
    assert T.load(result.trace_json) == result.trace
