"""Request heads and bodies have a size bound and a read deadline, under `gradstep serve`:
a 1 MB header is refused with 431, a head or body trickled in a byte at a time gets a 408
and its connection is closed, a connection that sends nothing is closed, and other clients
are served throughout."""
from __future__ import annotations

import json
import socket
import time
from urllib.request import Request, urlopen

import pytest

from live_server import LiveServer

DEADLINES = {"GRADSTEP_RATE_LIMIT": "0", "GRADSTEP_HEADER_TIMEOUT": "2",
             "GRADSTEP_BODY_TIMEOUT": "2", "GRADSTEP_POOL_SIZE": "1"}


@pytest.fixture(scope="module")
def server():
    with LiveServer(env=DEADLINES, cli=True) as s:
        yield s


def honest_run(url: str) -> dict:
    req = Request(url + "/api/run", data=json.dumps({"code": "print(6 * 7)"}).encode(),
                  headers={"Content-Type": "application/json"})
    with urlopen(req, timeout=60) as r:
        return json.loads(r.read())


def read_all(sock: socket.socket, limit: float) -> bytes:
    """Everything the server sends until it closes the connection (or `limit` s pass)."""
    sock.settimeout(limit)
    data = b""
    try:
        while chunk := sock.recv(65536):
            data += chunk
    except TimeoutError:
        raise AssertionError(f"the connection was still open after {limit} s: {data!r}") from None
    return data


def trickle(sock: socket.socket, data: bytes, every: float, until: float) -> bool:
    """Send `data` one byte every `every` s; False once the server has closed on us."""
    for byte in data:
        if time.monotonic() > until:
            return True
        try:
            sock.sendall(bytes([byte]))
        except (BrokenPipeError, ConnectionResetError):
            return False
        time.sleep(every)
    return True


def test_a_huge_header_is_431_and_the_server_keeps_serving(server):
    with socket.create_connection(("127.0.0.1", server.port), timeout=10) as s:
        head = b"GET /healthz HTTP/1.1\r\nHost: localhost\r\nX-Big: " + b"a" * 1_000_000 + b"\r\n\r\n"
        try:
            s.sendall(head)
        except (BrokenPipeError, ConnectionResetError):
            pass                         # refused before it had all been sent
        answer = read_all(s, 10)
    assert answer.startswith(b"HTTP/1.1 431 "), answer[:200]
    assert honest_run(server.url)["result"]["stdout"] == "42\n"


def test_a_header_just_under_the_bound_is_accepted(server):
    req = Request(server.url + "/healthz", headers={"X-Fill": "a" * 12_000})
    with urlopen(req, timeout=10) as r:
        assert r.status == 200


def test_a_trickled_head_gets_408_and_is_closed(server):
    with socket.create_connection(("127.0.0.1", server.port), timeout=10) as s:
        # about 37 s of bytes, far past the 2 s deadline: the server must close on us while
        # the head is still arriving (a machine's speed only moves when)
        still_open = trickle(s, b"POST /api/run HTTP/1.1\r\nHost: localhost\r\nX-Slow: "
                             + b"z" * 100, every=0.25, until=time.monotonic() + 300)
        answer = read_all(s, 10)
    assert still_open is False, "the server let the trickled head run to its end"
    assert answer.startswith(b"HTTP/1.1 408 "), answer[:200]
    assert b"did not arrive within 2 s" in answer


def test_a_silent_connection_is_closed(server):
    with socket.create_connection(("127.0.0.1", server.port), timeout=10) as s:
        assert read_all(s, 10).startswith(b"HTTP/1.1 408 ")


def test_a_trickled_body_gets_408_and_is_closed_while_others_are_served(server):
    body = json.dumps({"code": "print(1)" + " " * 60}).encode()
    with socket.create_connection(("127.0.0.1", server.port), timeout=10) as s:
        s.sendall(b"POST /api/run HTTP/1.1\r\nHost: localhost\r\nContent-Type: application/json\r\n"
                  b"Content-Length: %d\r\n\r\n" % len(body))
        started = time.monotonic()
        trickle(s, body[:4], every=0.3, until=started + 8)
        assert honest_run(server.url)["result"]["stdout"] == "42\n"
        trickle(s, body[4:], every=0.3, until=started + 8)
        answer = read_all(s, 10)
    status, _, rest = answer.partition(b"\r\n")
    assert status.startswith(b"HTTP/1.1 408 "), answer[:300]
    assert b"connection: close" in rest.lower()
    error = json.loads(rest.split(b"\r\n\r\n", 1)[1])["error"]
    assert error["code"] == "body_timeout" and "2 s" in error["message"]
    assert honest_run(server.url)["result"]["exit_code"] == 0
