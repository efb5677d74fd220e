"""Every refusal the server makes on its own: 413, 429 + Retry-After, 503, bad JSON, 404,
and that it keeps answering afterwards."""
from __future__ import annotations

import json
import threading

import pytest
from fastapi.testclient import TestClient

from app_testing import fake_client
from app_fakes import FakePool


def error_of(response) -> dict:
    body = response.json()
    assert set(body) == {"error"}, body
    assert body["error"]["message"] and body["error"]["request_id"]
    return body["error"]


def test_body_over_limit_is_413_by_content_length(client):
    limit = client.app.state.settings.max_body_bytes
    r = client.post("/api/run", content=b"x" * (limit + 1),
                    headers={"content-type": "application/json"})
    assert r.status_code == 413
    assert error_of(r)["code"] == "body_too_large"
    assert str(limit) in error_of(r)["message"]


def test_streamed_body_over_limit_is_413(client):
    limit = client.app.state.settings.max_body_bytes

    def chunks():  # no Content-Length: the cap must count bytes as they arrive
        for _ in range(limit // 1000 + 2):
            yield b"x" * 1000

    r = client.post("/api/run", content=chunks(), headers={"content-type": "application/json"})
    assert r.status_code == 413
    assert error_of(r)["code"] == "body_too_large"


def test_program_over_limit_is_413_and_never_runs():
    pool = FakePool()
    with fake_client(pool, max_program_bytes=100) as c:
        r = c.post("/api/run", json={"code": "#" * 101})
        assert r.status_code == 413
        assert error_of(r)["code"] == "program_too_large"
        assert "101 bytes" in error_of(r)["message"]
        assert pool.runs == 0
        assert c.post("/api/run", json={"code": "#" * 100}).status_code == 200


def test_rate_limit_is_429_with_retry_after():
    with fake_client(rate_limit=3) as c:
        codes = [c.post("/api/run", json={"code": f"print({i})"}).status_code for i in range(4)]
        assert codes == [200, 200, 200, 429]
        r = c.post("/api/run", json={"code": "print(9)"})
        assert r.status_code == 429
        assert int(r.headers["retry-after"]) >= 1
        assert error_of(r)["code"] == "rate_limited"
        assert "3 per minute" in error_of(r)["message"]
        # pages and examples are not charged
        assert c.get("/api/examples").status_code == 200
        assert c.get("/healthz").status_code == 200


def test_rate_limit_counts_render_too():
    with fake_client(rate_limit=1) as c:
        assert c.get("/api/render", params={"code": "x = 1"}).status_code == 200
        assert c.post("/api/render", json={"code": "x = 2"}).status_code == 429


def test_forwarded_for_is_ignored_unless_trusted():
    with fake_client(rate_limit=1) as c:
        assert c.post("/api/run", json={"code": "a"},
                      headers={"x-forwarded-for": "10.0.0.1"}).status_code == 200
        # a client cannot dodge the limit by inventing addresses
        assert c.post("/api/run", json={"code": "b"},
                      headers={"x-forwarded-for": "10.0.0.2"}).status_code == 429
    # trusted, but the test client's peer ("testclient") is no trusted proxy by default
    with fake_client(rate_limit=1, trust_proxy_headers=True) as c:
        assert c.post("/api/run", json={"code": "a"},
                      headers={"x-forwarded-for": "10.0.0.1"}).status_code == 200
        assert c.post("/api/run", json={"code": "b"},
                      headers={"x-forwarded-for": "10.0.0.2"}).status_code == 429
    # behind a trusted proxy, the hop it added counts: the right end of the list
    with fake_client(rate_limit=1, trust_proxy_headers=True,
                     trusted_proxies="testclient") as c:
        assert c.post("/api/run", json={"code": "a"},
                      headers={"x-forwarded-for": "10.0.0.1, 172.16.0.9"}).status_code == 200
        assert c.post("/api/run", json={"code": "b"},
                      headers={"x-forwarded-for": "172.16.0.10"}).status_code == 200
        assert c.post("/api/run", json={"code": "c"},
                      headers={"x-forwarded-for": "10.0.0.3, 172.16.0.9"}).status_code == 429


def test_a_client_rotating_the_leftmost_hop_behind_an_appending_proxy_stays_limited():
    # The proxy (the test client's peer) appends the address it saw; the client writes its
    # own X-Forwarded-For first, a new one each time.
    with fake_client(rate_limit=5, trust_proxy_headers=True,
                     trusted_proxies="testclient, 10.0.0.0/8") as c:
        statuses = [c.post("/api/run", json={"code": f"x = {i}"},
                           headers={"x-forwarded-for": f"198.51.100.{i}, 203.0.113.7"}
                           ).status_code for i in range(12)]
        assert statuses == [200] * 5 + [429] * 7
        # two proxies in a row, both trusted: still the hop the first one added
        r = c.post("/api/run", json={"code": "y"},
                   headers={"x-forwarded-for": "192.0.2.99, 203.0.113.7, 10.1.2.3"})
        assert r.status_code == 429
        # a second header line is part of the same list, not a way around it
        r = c.post("/api/run", json={"code": "z"},
                   headers=[("x-forwarded-for", "192.0.2.98"),
                            ("x-forwarded-for", "203.0.113.7")])
        assert r.status_code == 429
        # another learner behind the same proxy has a budget of their own
        assert c.post("/api/run", json={"code": "w"},
                      headers={"x-forwarded-for": "203.0.113.8"}).status_code == 200


def test_busy_pool_is_503_after_queue_timeout():
    pool = FakePool(hold=threading.Event())
    with fake_client(pool, queue_timeout=0.2, max_concurrent_runs=1) as c:
        first: dict = {}
        worker = threading.Thread(
            target=lambda: first.update(r=c.post("/api/run", json={"code": "slow"})))
        worker.start()
        try:
            assert pool.started.wait(10)
            r = c.post("/api/run", json={"code": "another"})
            assert r.status_code == 503
            assert error_of(r)["code"] == "busy"
            assert int(r.headers["retry-after"]) >= 1
        finally:
            pool.hold.set()
            worker.join(30)
        assert first["r"].status_code == 200
        assert c.post("/api/run", json={"code": "after"}).status_code == 200


def test_a_full_queue_is_503_at_once():
    pool = FakePool(hold=threading.Event())
    with fake_client(pool, queue_timeout=30, max_concurrent_runs=1) as c:
        c.app.state.runs.gate.max_waiting = 0
        worker = threading.Thread(target=lambda: c.post("/api/run", json={"code": "slow"}))
        worker.start()
        try:
            assert pool.started.wait(10)
            r = c.post("/api/run", json={"code": "no room to wait"})
            assert r.status_code == 503 and error_of(r)["code"] == "busy"
            assert "already waiting" in error_of(r)["message"] and r.headers["retry-after"]
        finally:
            pool.hold.set()
            worker.join(30)
        assert pool.runs == 1


def test_malformed_json_is_400_with_the_parser_message(client):
    r = client.post("/api/run", content=b'{"code": "x"',
                    headers={"content-type": "application/json"})
    assert r.status_code == 400
    err = error_of(r)
    assert err["code"] == "bad_json" and "not valid JSON" in err["message"]


def test_empty_and_non_utf8_bodies_are_400(client):
    r = client.post("/api/run", content=b"", headers={"content-type": "application/json"})
    assert r.status_code == 400 and "empty" in error_of(r)["message"]
    r = client.post("/api/run", content=b'{"code": "\xff"}',
                    headers={"content-type": "application/json"})
    assert r.status_code == 400
    assert error_of(r)["code"] == "bad_json" and "UTF-8" in error_of(r)["message"]


def test_wrong_shape_is_422_naming_the_field(client):
    r = client.post("/api/run", json={"program": "x"})
    assert r.status_code == 422
    err = error_of(r)
    assert err["code"] == "invalid_request" and "body.code" in err["message"]
    r = client.post("/api/run", json={"code": 5})
    assert r.status_code == 422 and "body.code" in error_of(r)["message"]
    r = client.post("/api/run", json={"code": "x", "lang": "fr"})
    assert r.status_code == 422 and "lang" in error_of(r)["message"]
    r = client.post("/api/run", json=["code"])
    assert r.status_code == 422


def test_unknown_route_and_method_are_json(client):
    r = client.get("/api/nope")
    assert r.status_code == 404 and error_of(r)["code"] == "not_found"
    r = client.delete("/api/run")
    assert r.status_code == 405 and error_of(r)["code"] == "method_not_allowed"


def test_server_keeps_serving_after_bad_input(client):
    bad = [b"", b"{", b"null", b"[]", b'{"code": null}', b"\x00\xff" * 50,
           json.dumps({"code": "x" * 10, "extra": 1}).encode()]
    for body in bad:
        r = client.post("/api/run", content=body, headers={"content-type": "application/json"})
        assert 400 <= r.status_code < 500, (body, r.status_code)
    assert client.post("/api/run", json={"code": "print(1)"}).status_code == 200
    assert client.get("/healthz").json() == {"status": "ok"}


def test_a_failing_layout_still_answers_200(client, monkeypatch):
    import gradstep.app.services.runs as runs

    def broken(*args):
        raise RuntimeError("drawing bug")
    monkeypatch.setattr(runs, "layout_trace", broken)
    r = client.post("/api/run", json={"code": "print('layout breaks')"})
    assert r.status_code == 200
    assert r.json()["layout"] is None and r.json()["result"]["stdout"] == "ok\n"
    assert "server bug" in r.json()["layout_note"]


def test_a_graph_over_the_layout_cap_gets_a_note_not_a_hang():
    with fake_client(layout_max_nodes=3) as c:
        r = c.post("/api/run", json={"code": "print('big')"})
        assert r.status_code == 200 and r.json()["layout"] is None
        assert "7 boxes" in r.json()["layout_note"] and "at most 3" in r.json()["layout_note"]
        assert r.json()["trace"]["events"]              # the trace is still there to step
        r = c.post("/api/render", json={"code": "print('big')"})
        assert r.status_code == 413 and r.json()["error"]["code"] == "graph_too_large"


def test_unexpected_server_error_is_a_json_500_and_the_next_request_works(client, monkeypatch):
    def explode(*a, **k):
        raise RuntimeError("pool exploded")
    monkeypatch.setattr(client.app.state.fake_pool, "run", explode)
    quiet = TestClient(client.app, raise_server_exceptions=False)
    r = quiet.post("/api/run", json={"code": "print('boom')"})
    assert r.status_code == 500
    assert error_of(r)["code"] == "internal_error"
    assert "pool exploded" not in r.text        # internals stay in the log
    monkeypatch.undo()
    assert client.post("/api/run", json={"code": "print('fine')"}).status_code == 200


def test_token_bucket_refills_evenly_over_the_minute():
    from gradstep.app.services.limits import RateLimiter

    now = [0.0]
    limiter = RateLimiter(per_minute=2, clock=lambda: now[0])
    assert limiter.check("a") == 0.0 and limiter.check("a") == 0.0
    assert limiter.check("a") == pytest.approx(30.0)        # one token every 30 s
    assert limiter.check("b") == 0.0                        # clients are separate
    now[0] = 30.0
    assert limiter.check("a") == 0.0 and limiter.check("a") > 0
    assert RateLimiter(per_minute=0).check("a") == 0.0       # 0 turns it off


def test_client_key_trusts_forwarded_for_only_when_told():
    from gradstep.app.services.limits import client_key

    assert client_key("10.1.1.1", "203.0.113.5, 10.0.0.1", False) == "10.1.1.1"
    # the peer is not a trusted proxy (the default trusts the loopback only)
    assert client_key("10.1.1.1", "203.0.113.5, 10.0.0.1", True) == "10.1.1.1"
    assert client_key("10.1.1.1", "203.0.113.5, 10.0.0.1", True, "10.0.0.0/8") == "203.0.113.5"
    assert client_key("127.0.0.1", "203.0.113.5, 198.51.100.2", True) == "198.51.100.2"
    assert client_key("::1", "2001:db8::7", True) == "2001:db8::7"
    assert client_key("10.1.1.1", "a, b", True, "*") == "a"          # uvicorn's "*"
    assert client_key("127.0.0.1", "127.0.0.1", True) == "127.0.0.1"  # all hops trusted
    assert client_key("127.0.0.1", "x" * 5000, True) == "x" * 64
    assert client_key("10.1.1.1", None, True) == "10.1.1.1"
    assert client_key(None, None, False) == "unknown"
