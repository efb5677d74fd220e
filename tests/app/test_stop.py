"""Stopping a run: POST /api/run with a run_id, then POST /api/run/{run_id}/stop ends it on
the server at once (the sandbox worker is killed and replaced) and the slot serves the next
program."""
from __future__ import annotations

import threading
import time

import pytest
from fastapi.testclient import TestClient

from gradstep.app.main import create_app
from app_testing import make_settings

LOOP = "while True:\n    pass\n"


def one_worker_pool(settings):
    from gradstep.runner import Limits, WorkerPool
    # limits far beyond any wait below: only a stop can end the loop while the test waits
    return WorkerPool(size=1, limits=Limits.from_env(cpu_seconds=600, wall_seconds=600))


@pytest.fixture(scope="module")
def client():
    settings = make_settings(pool_size=1, rate_limit=0)
    with TestClient(create_app(settings, pool_factory=one_worker_pool)) as c:
        yield c


def post_in_background(client, body):
    box = {}
    thread = threading.Thread(target=lambda: box.setdefault("r", client.post("/api/run",
                                                                           json=body)))
    thread.start()
    return thread, box


def stop_when_running(client, run_id, within=120.0):
    stops = client.app.state.runs.stops
    deadline = time.monotonic() + within
    while not stops.running(run_id):
        assert time.monotonic() < deadline, "the run never started"
        time.sleep(0.05)
    assert client.post(f"/api/run/{run_id}/stop").json() == {"stopped": True}
    return time.monotonic()


def test_stop_ends_a_running_loop_and_frees_the_only_worker(client):
    run_id = "loop-0123456789abcdef"
    thread, box = post_in_background(client, {"code": LOOP, "run_id": run_id})
    stop_when_running(client, run_id)
    thread.join(200)
    assert not thread.is_alive()
    # the loop ended by the stop, not by a limit (those are 600 s, and answer "limit")
    answer = box["r"]
    assert answer.status_code == 409
    assert answer.json()["error"]["code"] == "stopped"
    # the one worker was replaced: the next program runs
    after = client.post("/api/run", json={"code": "print(6 * 7)\n"})
    assert after.status_code == 200
    assert after.json()["result"]["stdout"] == "42\n"


def test_stopping_an_unknown_or_finished_run_says_so(client):
    assert client.post("/api/run/nobody-ran-this-0000/stop").json() == {"stopped": False}
    run_id = "quick-0123456789abcdef"
    r = client.post("/api/run", json={"code": "print(1)\n", "run_id": run_id})
    assert r.status_code == 200
    assert client.post(f"/api/run/{run_id}/stop").json() == {"stopped": False}


def test_a_stop_sent_before_the_run_starts_refuses_it(client):
    run_id = "early-fedcba9876543210"
    assert client.post(f"/api/run/{run_id}/stop").json() == {"stopped": False}
    r = client.post("/api/run", json={"code": "print(2)\n", "run_id": run_id})
    assert r.status_code == 409
    assert r.json()["error"]["code"] == "stopped"


def test_a_stop_that_races_the_start_kills_the_run_as_it_starts():
    from gradstep.app.services.stops import RunStops
    stops = RunStops()
    assert stops.stop("early-0123456789abcdef") is False
    killed = []
    stops.started("early-0123456789abcdef", lambda: killed.append(1))
    assert killed == [1]


@pytest.mark.parametrize("bad", ["short", "has space in it 0123456", "x" * 65, "semi;colon;0123456789"])
def test_a_malformed_run_id_is_refused_clearly(client, bad):
    r = client.post("/api/run", json={"code": "print(1)\n", "run_id": bad})
    assert r.status_code == 422
    r = client.post(f"/api/run/{bad}/stop")
    assert r.status_code in (404, 422)
