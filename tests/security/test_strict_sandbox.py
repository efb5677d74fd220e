"""Strict sandbox: with GRADSTEP_SANDBOX_STRICT, `gradstep serve` refuses to start when seccomp
or Landlock is unavailable; without it (the laptop default) it starts and says so."""
from __future__ import annotations

import sys
import time

import pytest

import gradstep.app.server as server
from gradstep.app.lifespan import sandbox_report
from live_server import LiveServer

ALL = {"rlimits": True, "seccomp": True, "landlock": True, "unprivileged": True}


def test_serve_refuses_to_start_when_a_required_layer_is_missing(monkeypatch, capsys):
    from gradstep.runner import sandbox
    from gradstep.runner.sandbox import SandboxUnavailable

    class NoLandlock:
        def __init__(self, *args, **kwargs):
            raise SandboxUnavailable("sandbox layers unavailable: landlock "
                                     "(GRADSTEP_SANDBOX_STRICT)")

    def never(*args, **kwargs):
        raise AssertionError("uvicorn was started")

    monkeypatch.setenv("GRADSTEP_SANDBOX_STRICT", "1")
    monkeypatch.setattr(sandbox, "WorkerPool", NoLandlock)
    monkeypatch.setitem(sys.modules, "uvicorn", type(sys)("uvicorn"))
    sys.modules["uvicorn"].run = never
    assert server.serve(port=0) == 1
    err = capsys.readouterr().err
    assert "refusing to start" in err and "landlock" in err


def test_strict_mode_starts_where_every_layer_is_available(monkeypatch):
    # the layers on, as a server has them, even where the suite runs with them off
    monkeypatch.delenv("GRADSTEP_SANDBOX_OS_LAYERS", raising=False)
    monkeypatch.setenv("GRADSTEP_SANDBOX_STRICT", "1")
    assert server.strict_sandbox_problem() is None
    monkeypatch.delenv("GRADSTEP_SANDBOX_STRICT")
    assert server.strict_sandbox_problem() is None


def test_start_up_line_names_the_layers_and_the_mode():
    relaxed = sandbox_report({**ALL, "landlock": False}, set())
    assert "active: rlimits, seccomp, unprivileged; missing: landlock" in relaxed
    assert "Not strict" in relaxed and "GRADSTEP_SANDBOX_STRICT=1" in relaxed
    strict = sandbox_report(ALL, {"seccomp", "landlock"})
    assert "missing" not in strict
    assert "does not start without landlock and seccomp" in strict


@pytest.mark.parametrize("strict, expected", [("", "Not strict"), ("1", "Strict (")])
def test_gradstep_serve_says_at_start_up_whether_it_is_strict(strict, expected):
    # (GRADSTEP_SANDBOX_OS_LAYERS emptied: the layers on, even where the suite runs with
    # them off)
    with LiveServer(env={"GRADSTEP_SANDBOX_STRICT": strict, "GRADSTEP_POOL_SIZE": "1",
                         "GRADSTEP_SANDBOX_OS_LAYERS": ""}, cli=True) as live:
        deadline = time.monotonic() + 30
        while "gradstep sandbox:" not in live.log_text() and time.monotonic() < deadline:
            time.sleep(0.2)
        line = next(li for li in live.log_text().splitlines() if "gradstep sandbox:" in li)
    assert expected in line and "seccomp" in line and "landlock" in line
