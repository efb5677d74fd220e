"""The language layer alone (GRADSTEP_SANDBOX_OS_LAYERS=none): what the hostile corpus does
not show by its ending. Addresses are per-run numbers, a swallowed stop still ends the run,
format fields read through the guard, and a forged answer without a trace is named as one.
The escapes themselves are tests/runner/hostile/esc*.py, run with the OS layers on
(tests/runner/test_corpus.py) and off (tests/runner/test_language_layers_alone.py)."""
from __future__ import annotations

import json
import sys
from pathlib import Path

import pytest

from gradstep.runner import Limits, WorkerPool

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))     # escaped_worker
from escaped_worker import HelperZygote

LIMITS = Limits(cpu_seconds=2, wall_seconds=10)


@pytest.fixture(scope="module")
def bare_pool():
    with pytest.MonkeyPatch.context() as mp:
        mp.setenv("GRADSTEP_SANDBOX_OS_LAYERS", "none")
        mp.delenv("GRADSTEP_SANDBOX_STRICT", raising=False)
        with WorkerPool(size=1, limits=LIMITS) as pool:
            yield pool


def test_data_ptr_is_a_per_run_number_that_keeps_view_offsets(bare_pool):
    source = ("import torch\nx = torch.arange(6.)\ny = torch.zeros(2, dtype=torch.float64)\n"
              "print(x.data_ptr(), x[2:].data_ptr() - x.data_ptr(),\n"
              "      x.view(2, 3).data_ptr() == x.data_ptr(), x.clone().data_ptr() != "
              "x.data_ptr(),\n      y[1:].data_ptr() - y.data_ptr(), y.data_ptr() > "
              "x.data_ptr())\n")
    first, second = bare_pool.run(source), bare_pool.run(source)
    assert first.error is None, first.stderr
    # the first storage asked for gets the first number, the same in every run: no address
    assert first.stdout == second.stdout == f"{0x5000_0000_0000} 8 True True 8 True\n"


@pytest.mark.parametrize("swallow", [
    "def f():\n    try:\n        getattr(print, '__glo' + 'bals__')\n    finally:\n"
    "        return 1\n",
    "def f():\n    for _ in range(2):\n        try:\n            getattr(print, '__co' + "
    "'de__')\n        finally:\n            continue\n",
])
@pytest.mark.parametrize("after", ["print('PWNED')\n", "x = [1][0]\n",
                                   "raise ValueError('other')\n"])
def test_a_swallowed_refusal_still_ends_the_run(bare_pool, swallow, after):
    result = bare_pool.run(swallow + "f()\n" + after)
    assert result.error["type"] == "SecurityError", result.error
    assert "__" in result.error["message"]
    assert "PWNED" not in result.stdout


def test_format_fields_index_and_read_attributes_as_the_program_could(bare_pool):
    ok = bare_pool.run("import torch\nprint('{0[1]} {0[0]:.1f} {1.shape} {d[k]}'.format("
                       "[1.5, 2], torch.ones(2, 3), d={'k': 'v'}))\n")
    assert (ok.stdout, ok.error) == ("2 1.5 torch.Size([2, 3]) v\n", None)
    for field in ("{0.__class__.__base__}", "{0.tofile}", "{0[0].__globals__}"):
        refused = bare_pool.run(f"import numpy as np\nprint('{field}'.format([np.zeros(1)]"
                                f" if '[' in '{field}' else np.zeros(1)))\n")
        assert refused.error["kind"] == "refused", (field, refused.error)


def test_a_forged_result_without_a_trace_is_an_invalid_answer_not_a_crash():
    with pytest.MonkeyPatch.context() as mp:
        mp.setenv("GRADSTEP_SANDBOX_OS_LAYERS", "none")
        zygote = HelperZygote()
        try:
            forged = json.dumps({"exit_code": 0, "error": None})
            result = zygote.run(f"forge('r', {forged!r})\n", "main.py", LIMITS, True)
            assert result.error["type"] == "InvalidAnswer", result.error
            assert "sandbox error" not in result.error["message"]
            assert zygote.run("print(6 * 7)\n", "main.py", LIMITS, False).stdout == "42\n"
        finally:
            zygote.close()
