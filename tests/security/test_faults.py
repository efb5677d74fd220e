"""Faults through real HTTP: a sandbox worker SIGKILLed mid-run, a run that hangs, and the
server itself restarted. Each time the request in flight gets a clear answer and the next
one is served normally."""
from __future__ import annotations

import json
import os
import signal
import threading
import time
from urllib.request import Request, urlopen

import pytest

from live_server import LiveServer

SLOW = "import torch\nx = torch.ones(3)\nwhile True:\n    x = x * 1.0\n"
SEED = "import torch\nx = torch.tensor([1.0, 2.0], requires_grad=True)\n(x * x).sum().backward()\nprint(x.grad)\n"


def post(url: str, code: str, timeout: float = 60) -> tuple[int, dict]:
    req = Request(url + "/api/run", data=json.dumps({"code": code}).encode(),
                  headers={"Content-Type": "application/json"})
    with urlopen(req, timeout=timeout) as r:
        return r.status, json.loads(r.read())


@pytest.fixture(scope="module")
def server():
    env = {"GRADSTEP_RATE_LIMIT": "0", "GRADSTEP_POOL_SIZE": "1",
           "GRADSTEP_LIMIT_WALL_SECONDS": "6", "GRADSTEP_LIMIT_CPU_SECONDS": "5"}
    with LiveServer(env=env) as s:
        yield s


def test_a_worker_killed_mid_run_gives_a_clear_error_then_service_resumes(server):
    post(server.url, SEED)                       # warm: the pool's zygote is up
    before = set(server.descendants())
    answer = {}
    thread = threading.Thread(target=lambda: answer.update(zip(("status", "body"),
                                                               post(server.url, SLOW + "#k"))))
    thread.start()
    deadline = time.monotonic() + 20
    victims = []
    while not victims and time.monotonic() < deadline:
        time.sleep(0.2)
        victims = [p for p in server.descendants() if p not in before]   # the run's child
    assert victims, "no run process appeared"
    for pid in victims:
        os.kill(pid, signal.SIGKILL)
    thread.join(30)
    assert answer["status"] == 200
    result = answer["body"]["result"]
    assert result["exit_code"] == 1 and result["error"]["kind"] in ("crash", "limit")
    assert result["error"]["message"]
    status, body = post(server.url, SEED)
    assert status == 200 and body["result"]["stdout"] == "tensor([2., 4.])\n"


def test_a_hanging_run_is_stopped_at_the_limit_and_named(server):
    status, body = post(server.url, SLOW + "#hang")
    result = body["result"]
    assert status == 200 and result["exit_code"] == 1
    assert result["error"]["kind"] == "limit"
    assert result["error"]["limit"] in ("cpu_time", "wall_time")
    assert "limit" in result["stderr"].splitlines()[-1].lower()
    assert post(server.url, SEED)[1]["result"]["exit_code"] == 0


def test_a_restarted_server_answers_the_same_program_the_same_way(server):
    _, first = post(server.url, SEED + "#restart")
    server.restart()
    _, second = post(server.url, SEED + "#restart")
    # the program is all the state there is: same program, same output, same trace
    assert first["result"]["stdout"] == second["result"]["stdout"]
    assert first["trace"] == second["trace"]
