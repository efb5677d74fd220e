"""What a run's process holds of other requests, and what the server makes of a forged answer.

These tests start a zygote whose programs get privileged helpers the policy would never
give them (tests/escaped_worker.py): `probe` searches the process's own objects and frames
for a marker, `forge` writes raw frames on the run's result pipe. They stand for a program
that escaped the language layers, and check what such a program could reach or forge.
"""
import json
import sys
from pathlib import Path

import pytest

from gradstep.runner.limits import Limits

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))     # escaped_worker
from escaped_worker import HelperZygote


@pytest.fixture(params=["os-layers", "language-layers-alone"])
def zygote(request, monkeypatch):
    """A helper zygote with every OS layer, and one with none (GRADSTEP_SANDBOX_OS_LAYERS)."""
    if request.param == "language-layers-alone":
        monkeypatch.setenv("GRADSTEP_SANDBOX_OS_LAYERS", "none")
        monkeypatch.delenv("GRADSTEP_SANDBOX_STRICT", raising=False)
    z = HelperZygote()
    yield z
    z.close()


LIMITS = Limits(cpu_seconds=2, wall_seconds=10)


def run(zygote, source, trace=False):
    return zygote.run(source, "main.py", LIMITS, trace)


@pytest.mark.parametrize("trace", [False, True])
def test_a_run_holds_nothing_of_the_previous_request(zygote, trace):
    secret = "secret-source-" + "a7781"
    first = run(zygote, f"x = '{secret}'\nprint('printed-' + 'b5521', x[:3])\n", trace)
    assert first.stdout == "printed-b5521 sec\n", first.stderr
    # the second program's own text holds neither marker whole
    probe = ("print(probe('secret-source-' + 'a7781'), probe('printed-' + 'b5521'))\n")
    second = run(zygote, probe, trace)
    assert second.error is None, second.stderr
    assert second.stdout == "[] []\n"


def test_a_forged_result_is_an_invalid_answer(zygote):
    forged = json.dumps({"exit_code": 0, "error": None, "trace": {"forged": True}})
    result = run(zygote, f"forge('r', {forged!r})\n", trace=True)
    assert result.error["kind"] == "crash"
    assert "the run's answer was invalid" in result.error["message"]
    assert result.trace is None or "forged" not in result.trace


def test_a_forged_error_is_an_invalid_answer(zygote):
    forged = json.dumps({"exit_code": 1, "trace": None,
                         "error": {"type": "<b>x</b>", "message": 3, "line": "x", "kind": "?"}})
    result = run(zygote, f"forge('r', {forged!r})\n")
    assert result.error["kind"] == "crash"
    assert "the run's answer was invalid" in result.error["message"]
    assert "<b>" not in result.stderr + result.stdout


def test_stdout_is_not_a_frame_the_program_can_write(zygote):
    """Output comes from its own pipe: a forged output frame is not output."""
    result = run(zygote, "print('real')\nforge('o', 'forged output')\n")
    assert "forged output" not in result.stdout
    assert result.error["kind"] == "crash"
    assert "the run's answer was invalid" in result.error["message"]


def test_the_worker_serves_honestly_after_a_forgery(zygote):
    run(zygote, "forge('r', '{}')\n")
    assert run(zygote, "print(6 * 7)\n").stdout == "42\n"


def test_numpy_empty_hands_out_zeros_not_freed_memory(zygote):
    run(zygote, "x = 'freed-' * 5000\nprint(len(x))\n")
    result = run(zygote, "import numpy as np\nsizes = (7, 300, 5000, 70000)\n"
                         "print([int(np.empty(n, np.uint8).sum()) for n in sizes],\n"
                         "      int(np.empty_like(np.ones((50, 50))).sum()))\n")
    assert result.stdout == "[0, 0, 0, 0] 0\n", result.stderr
