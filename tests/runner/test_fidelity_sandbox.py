"""Every golden case (tests/oracle, tests/golden) through `gradstep run FILE`: the sandbox
must print what PyTorch 2.13 printed, exit as it did and fail and warn in its words — the
same check as tests/engine/test_fidelity.py, with the policy, guards and worker in the way.
(The guards once refused every Tensor method after the engine renamed its classes; only a
test through the real command sees that.)"""
import os
import sys
from pathlib import Path

import pytest

TESTS = Path(__file__).resolve().parents[1]
if str(TESTS) not in sys.path:
    sys.path.insert(0, str(TESTS))

import fidelity  # noqa: E402

GRADSTEP_RUN = [sys.executable, "-m", "gradstep", "run"]
CASES = fidelity.all_cases()


def _env() -> dict:
    env = dict(os.environ)
    env["PYTHONPATH"] = str(TESTS.parent) + os.pathsep + env.get("PYTHONPATH", "")
    return env


@pytest.mark.parametrize("case", CASES, ids=[f"{c.parent.parent.name}/{c.stem}" for c in CASES])
def test_case_matches_pytorch_through_the_sandbox(case):
    problem = fidelity.check_case(GRADSTEP_RUN, case, timeout=120, env=_env())
    assert problem is None, f"{case.stem}: {problem}"
