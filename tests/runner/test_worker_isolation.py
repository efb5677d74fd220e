"""What a run's process holds of other requests, and what the server makes of a forged answer.

These tests start a zygote whose programs get one privileged helper the policy would never
give them (`probe`): it searches the process's own objects and frames for a marker, or
writes raw frames on the run's result pipe. They stand for a program that escaped the
language layers, and check what such a program could reach or forge.
"""
import json
import subprocess
import sys

import pytest

from runner import protocol
from runner.limits import Limits
from runner.sandbox import Zygote

_HELPER = r'''
import gc, os, sys
from runner import guards, protocol, zygote

def search(marker):
    """Every place in this process's objects and frames that holds `marker`."""
    wanted, raw, hits = marker, marker.encode(), []
    def holds(value):
        if value is wanted or value is raw:
            return False
        if isinstance(value, str):
            return wanted in value
        if isinstance(value, (bytes, bytearray, memoryview)):
            return raw in bytes(value)
        return False
    for obj in gc.get_objects():
        for ref in gc.get_referents(obj):
            if holds(ref):
                hits.append(type(obj).__name__)
    frame = sys._getframe()
    while frame is not None:
        hits += [f"{frame.f_code.co_name}.{k}" for k, v in frame.f_locals.items() if holds(v)]
        frame = frame.f_back
    return sorted(set(hits))

def forge(frame_kind, payload):
    protocol.write_frame(3, frame_kind.encode(), payload.encode())
    os._exit(0)

plain = guards.Sandbox.globals
def with_helpers(self):
    g = plain(self)
    g["__builtins__"] = {**g["__builtins__"], "probe": search, "forge": forge}
    return g
guards.Sandbox.globals = with_helpers
sys.exit(zygote.main())
'''


class HelperZygote(Zygote):
    """A zygote started with the privileged helpers above (tests only)."""

    def __init__(self):
        original = subprocess.Popen

        def popen(args, **kwargs):
            return original([sys.executable, "-c", _HELPER], **kwargs)
        subprocess.Popen = popen
        try:
            super().__init__()
        finally:
            subprocess.Popen = original


@pytest.fixture()
def zygote():
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
