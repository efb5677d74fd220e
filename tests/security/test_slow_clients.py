"""Slow clients: connections that send half a request and then trickle (or stall) must not
keep anyone else from being served, and the server must stay up after they give up."""
from __future__ import annotations

import json
import socket
import time
from urllib.request import Request, urlopen

from live_server import LiveServer

SEED = "import torch\nx = torch.tensor([3.0], requires_grad=True)\n(x * x).sum().backward()\nprint(x.grad)\n"


def post(url: str) -> dict:
    req = Request(url + "/api/run", data=json.dumps({"code": SEED}).encode(),
                  headers={"Content-Type": "application/json"})
    with urlopen(req, timeout=60) as r:
        return json.loads(r.read())


def test_trickling_and_stalled_clients_do_not_block_others():
    with LiveServer(env={"GRADSTEP_RATE_LIMIT": "0"}) as server:
        slow = []
        for _i in range(30):
            s = socket.create_connection(("127.0.0.1", server.port), timeout=5)
            s.sendall(b"POST /api/run HTTP/1.1\r\nHost: localhost\r\nContent-Type: application/json\r\n"
                      b"Content-Length: 1000\r\n\r\n{\"code\": \"")
            slow.append(s)
        try:
            for _ in range(3):                    # keep trickling while others are served
                for s in slow[::2]:
                    try:
                        s.sendall(b"x")
                    except (BrokenPipeError, ConnectionResetError):
                        pass            # the server may hang up on them: that is allowed
                assert post(server.url)["result"]["stdout"] == "tensor([6.])\n"
                time.sleep(0.2)
        finally:
            for s in slow:
                s.close()
        assert post(server.url)["result"]["exit_code"] == 0      # still serving afterwards
        assert server.proc.poll() is None
