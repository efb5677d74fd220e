"""A forged answer over HTTP: the server answers that request with a clear error (a 200, no
trace, no markup), logs it, and serves the next request normally. The workers run programs
with the privileged helpers of tests/escaped_worker.py, standing for an escaped program."""
from __future__ import annotations

import json
from pathlib import Path

import pytest
from fastapi.testclient import TestClient

from gradstep.runner import sandbox
from gradstep.app.main import create_app
from app_testing import make_settings
from escaped_worker import HelperZygote

FIXTURES = Path(__file__).resolve().parents[1] / "fixtures" / "traces"


def helper_pool(settings):
    from gradstep.runner import Limits, WorkerPool
    return WorkerPool(size=1, limits=Limits(cpu_seconds=2, wall_seconds=10))


@pytest.fixture(scope="module")
def client():
    with pytest.MonkeyPatch.context() as mp:
        mp.setattr(sandbox, "Zygote", HelperZygote)
        app = create_app(make_settings(pool_size=1, rate_limit=0), pool_factory=helper_pool)
        with TestClient(app) as c:
            yield c


FORGERIES = {
    "trace": ("r", json.dumps({"exit_code": 0, "error": None,
                               "trace": {"format": "gradstep-trace", "events": "<b>"}})),
    "error": ("r", json.dumps({"exit_code": 1, "trace": None, "error": {
        "type": "<img src=x onerror=alert(1)>", "message": "x", "line": 1, "kind": "exception"}})),
    "output": ("o", "<script>alert(1)</script>"),
    "garbage": ("r", "not json at all"),
}


@pytest.mark.parametrize("name", sorted(FORGERIES))
def test_a_forged_answer_is_a_clear_error(client, name):
    kind, payload = FORGERIES[name]
    response = client.post("/api/run", json={"code": f"forge({kind!r}, {payload!r})\n"})
    assert response.status_code == 200
    body = response.json()
    error = body["result"]["error"]
    assert error["kind"] == "crash"
    assert "the run's answer was invalid" in error["message"]
    # a trace, if any, is the worker's own record of the error, not one the program sent
    trace = body["trace"]
    if trace is not None:
        assert [e["kind"] for e in trace["events"]] == ["error", "end"]
        assert "the run's answer was invalid" in trace["events"][0]["message"]
    shown = json.dumps(body["result"])
    assert "<script>" not in shown and "onerror" not in shown and "<b>" not in shown
    honest = client.post("/api/run", json={"code": "print(6 * 7)\n"})
    assert honest.status_code == 200 and honest.json()["result"]["stdout"] == "42\n"


def test_a_forged_but_valid_trace_is_drawn_without_a_server_error(client):
    """A trace that follows the schema is the program's own word, like its output: the
    server lays it out (or says why not) and never fails on it."""
    fixture = FIXTURES / "first_trace.json"
    response = client.post("/api/run", json={
        "code": f"forge_trace({fixture.read_text()!r})\n"})
    assert response.status_code == 200
    body = response.json()
    assert body["result"]["error"] is None and body["trace"]["events"]
    assert body["layout"] is not None, body["layout_note"]
