"""Security headers on every kind of answer, the embedding policy, and the access log."""
from __future__ import annotations

import json

import pytest

from app_testing import fake_client

PATHS = [("get", "/healthz", None), ("get", "/api/examples", None),
         ("post", "/api/run", {"code": "print(1)"}), ("get", "/api/nope", None),
         ("post", "/api/run", {"nope": 1}), ("get", "/docs", None),
         ("get", "/openapi.json", None), ("get", "/api/render?code=x", None)]


@pytest.mark.parametrize("method,path,body", PATHS)
def test_every_answer_has_the_security_headers(client, method, path, body):
    r = getattr(client, method)(path, **({"json": body} if body else {}))
    csp = r.headers["content-security-policy"]
    assert "'unsafe-inline'" not in csp and "'unsafe-eval'" not in csp
    assert "default-src 'self'" in csp and "object-src 'none'" in csp
    assert "frame-ancestors 'self'" in csp
    assert r.headers["x-content-type-options"] == "nosniff"
    assert r.headers["referrer-policy"] == "strict-origin-when-cross-origin"
    assert len(r.headers["x-request-id"]) == 16


def test_app_pages_allow_only_same_origin_scripts(client):
    csp = client.get("/healthz").headers["content-security-policy"]
    directives = dict(d.strip().split(" ", 1) for d in csp.split(";"))
    assert directives["script-src"] == "'self'"
    assert directives["style-src"] == "'self'"
    assert directives["connect-src"] == "'self'"


def test_docs_page_allows_exactly_its_inline_script_by_hash(client):
    r = client.get("/docs")
    assert r.status_code == 200 and "swagger" in r.text.lower()
    script_src = [d for d in r.headers["content-security-policy"].split(";")
                  if d.strip().startswith("script-src")][0]
    assert "'sha256-" in script_src and "unsafe" not in script_src


def test_frame_ancestors_comes_from_settings():
    with fake_client(frame_ancestors="https://lms.example.edu") as c:
        r = c.get("/healthz")
        assert "frame-ancestors https://lms.example.edu" in r.headers["content-security-policy"]
        # X-Frame-Options cannot name another origin, so it must not contradict the CSP
        assert "x-frame-options" not in r.headers
    with fake_client(frame_ancestors="'none'") as c:
        assert c.get("/healthz").headers["x-frame-options"] == "DENY"


def test_one_json_access_line_per_request(client, access_lines):
    client.post("/api/run", json={"code": "print(1)"})
    client.post("/api/run", json={"code": "raise ValueError('boom')"})
    client.get("/api/nope")
    client.post("/api/run", content=b"{", headers={"content-type": "application/json"})
    lines = [json.loads(x) for x in access_lines()]
    assert len(lines) == 4
    for line in lines:
        assert {"request_id", "method", "path", "status", "duration_ms", "outcome"} <= set(line)
        assert isinstance(line["duration_ms"], float) and line["duration_ms"] >= 0
    assert [(x["status"], x["outcome"]) for x in lines] == [
        (200, "ok"), (200, "exception"), (404, "client_error"), (400, "client_error")]
    assert len({x["request_id"] for x in lines}) == 4


def test_rejections_are_logged_as_rejected(access_lines):
    with fake_client(rate_limit=1) as c:
        c.post("/api/run", json={"code": "a"})
        r = c.post("/api/run", json={"code": "b"})
    last = json.loads(access_lines()[-1])
    assert last["status"] == 429 and last["outcome"] == "rejected"
    assert last["request_id"] == r.headers["x-request-id"] == r.json()["error"]["request_id"]
