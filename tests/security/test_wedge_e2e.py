"""A real server, sent the program that once wedged it (a block called through a loop variable
named like its model), keeps answering; and SIGTERM stops a busy server."""
from __future__ import annotations

import http.client
import json
import os
import signal
import threading
import time
from pathlib import Path

from live_server import LiveServer

PROGRAM = (Path(__file__).resolve().parents[1] / "fixtures" / "server_programs"
           / "loop_variable_named_like_the_model.py").read_text()
HONEST = "import torch\nx = torch.ones(2, requires_grad=True)\n(x * 3).sum().backward()\nprint(x.grad)\n"
BOUND = 90.0      # seconds: generous on a loaded 2-core machine; a wedged request never answers


def post_run(port: int, code: str, source: str, timeout: float = BOUND) -> tuple[int, dict]:
    """POST /api/run from the loopback address `source` (127.0.0.x: a client of its own)."""
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=timeout,
                                      source_address=(source, 0))
    try:
        conn.request("POST", "/api/run", json.dumps({"code": code}),
                     {"Content-Type": "application/json"})
        response = conn.getresponse()
        return response.status, json.loads(response.read() or b"null")
    finally:
        conn.close()


def test_the_wedge_program_twice_from_two_addresses_leaves_the_server_answering():
    # the default server: two sandbox slots, at most one per client
    with LiveServer(env={"GRADSTEP_RATE_LIMIT": "0", "GRADSTEP_POOL_SIZE": "2"}) as server:
        answers: dict[str, tuple[int, dict]] = {}

        def send(source: str) -> None:
            try:
                answers[source] = post_run(server.port, PROGRAM, source)
            except OSError as exc:
                answers[source] = (0, {"error": repr(exc)})

        senders = [threading.Thread(target=send, args=(a,), daemon=True)
                   for a in ("127.0.0.2", "127.0.0.3")]
        for t in senders:
            t.start()
        for t in senders:
            t.join(BOUND)
        assert not any(t.is_alive() for t in senders), "a run of the program never answered"
        for source, (status, answer) in answers.items():
            assert status == 200, (source, answer)
            assert answer["result"]["stdout"].strip() == "0.7044"
            groups = answer["layout"]["groups"]
            assert all(g["parent"] != gid for gid, g in groups.items())
        status, answer = post_run(server.port, HONEST, "127.0.0.4")
        assert status == 200 and answer["result"]["stdout"] == "tensor([3., 3.])\n"
        assert answer["layout"]["nodes"]


def test_sigterm_stops_a_busy_server():
    busy = "while True:\n    pass\n"
    env = {"GRADSTEP_RATE_LIMIT": "0", "GRADSTEP_LIMIT_CPU_SECONDS": "120",
           "GRADSTEP_LIMIT_WALL_SECONDS": "120"}
    with LiveServer(env=env, cli=True) as server:
        threads = [threading.Thread(target=lambda a=a: _quietly(post_run, server.port, busy, a),
                                    daemon=True) for a in ("127.0.0.2", "127.0.0.3")]
        for t in threads:
            t.start()
        time.sleep(2)                 # both runs are in their sandboxes by now
        os.kill(server.proc.pid, signal.SIGTERM)    # as a supervisor does: the server only
        try:
            server.proc.wait(BOUND / 3)     # docs/security.md quotes the time it takes
        except Exception:
            raise AssertionError("the server did not stop on SIGTERM:\n"
                                 + server.log_text()[-2000:]) from None
        leftovers = [pid for pid in server.descendants()]
        assert not leftovers, f"sandbox processes outlived the server: {leftovers}"


def _quietly(fn, *args) -> None:
    try:
        fn(*args)
    except (OSError, ValueError):
        pass                          # the server went away: that is the point
