"""A client that goes away while its run holds the only sandbox worker does not keep it: the
server sees the connection close, stops the run and serves the next one, long before the
run's own limits would have ended it."""
from __future__ import annotations

import json
import socket
import time
from urllib.request import Request, urlopen

from live_server import LiveServer

ENV = {"GRADSTEP_POOL_SIZE": "1", "GRADSTEP_RATE_LIMIT": "0", "GRADSTEP_QUEUE_TIMEOUT": "30",
       "GRADSTEP_LIMIT_CPU_SECONDS": "120", "GRADSTEP_LIMIT_WALL_SECONDS": "240"}
RUN_ID = "gone-0123456789abcdef"


def progress(url: str) -> str:
    with urlopen(f"{url}/api/run/{RUN_ID}/progress", timeout=30) as r:
        return json.loads(r.read())["state"]


def test_a_run_whose_client_left_is_stopped_and_its_worker_serves_the_next():
    with LiveServer(env=ENV) as server:
        urlopen(server.url + "/readyz", timeout=60).read()
        body = json.dumps({"code": "while True:\n    pass\n", "run_id": RUN_ID}).encode()
        conn = socket.create_connection(("127.0.0.1", server.port), timeout=30)
        conn.sendall(b"POST /api/run HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n"
                     + f"Content-Length: {len(body)}\r\n\r\n".encode() + body)
        deadline = time.monotonic() + 60
        while progress(server.url) != "running":
            assert time.monotonic() < deadline, "the loop never started"
            time.sleep(0.1)
        conn.close()                                   # the learner closed the tab
        request = Request(server.url + "/api/run", json.dumps({"code": "print(6 * 7)\n"})
                          .encode(), {"Content-Type": "application/json"})
        with urlopen(request, timeout=120) as r:       # a 503 after 30 s if still held
            answer = json.loads(r.read())
        assert answer["result"]["stdout"] == "42\n"
        assert progress(server.url) == "unknown"
