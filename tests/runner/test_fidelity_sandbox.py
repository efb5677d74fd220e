"""Every golden case (tests/oracle, tests/golden) through the sandbox: it must print what
PyTorch 2.13 printed, exit as it did and fail and warn in its words — the same check as
tests/engine/test_fidelity.py, with the policy, guards and worker in the way. (The guards once
refused every Tensor method after the engine renamed its classes; only a test through the
sandbox sees that.)

The cases run through one warm worker pool, as the server runs programs, with the file's
absolute path as `gradstep run FILE` names it. A few run through the real command too, a
fresh interpreter each, so the command's own path (reading the file, the one-shot worker,
stdout and stderr bytes, the exit code) is checked on every kind of case."""
import os
import sys
from pathlib import Path

import pytest

from gradstep.runner.sandbox import WorkerPool

TESTS = Path(__file__).resolve().parents[1]
if str(TESTS) not in sys.path:
    sys.path.insert(0, str(TESTS))

import fidelity  # noqa: E402

GRADSTEP_RUN = [sys.executable, "-m", "gradstep", "run"]
CASES = fidelity.all_cases()
IDS = [f"{c.parent.parent.name}/{c.stem}" for c in CASES]


def _through_the_command() -> list:
    """Cases for the fresh-interpreter path: every 40th, and the first that fails, the first
    that warns and the first that exits with its own code (each kind of ending once)."""
    chosen = set(CASES[::40])
    kinds = (lambda e: e.rc == 1 and e.err, lambda e: e.warnings, lambda e: e.rc not in (0, 1))
    for kind in kinds:
        chosen.update([c for c in CASES if kind(fidelity.Expected.load(c))][:1])
    return [c for c in CASES if c in chosen]


COMMAND_CASES = _through_the_command()


def _env() -> dict:
    env = dict(os.environ)
    env["PYTHONPATH"] = str(TESTS.parent) + os.pathsep + env.get("PYTHONPATH", "")
    return env


@pytest.fixture(scope="module")
def pool():
    with WorkerPool(size=1) as workers:
        yield workers


@pytest.mark.parametrize("case", CASES, ids=IDS)
def test_case_matches_pytorch_through_the_sandbox(pool, case):
    result = pool.run(case.read_text(encoding="utf-8"), filename=str(case.resolve()),
                      trace=False)
    problem = fidelity.judge(case, result.stdout, result.stderr, result.exit_code)
    assert problem is None, f"{case.stem}: {problem}"


@pytest.mark.parametrize("case", COMMAND_CASES,
                         ids=[f"{c.parent.parent.name}/{c.stem}" for c in COMMAND_CASES])
def test_case_matches_pytorch_through_gradstep_run(case):
    problem = fidelity.check_case(GRADSTEP_RUN, case, timeout=120, env=_env())
    assert problem is None, f"{case.stem}: {problem}"
