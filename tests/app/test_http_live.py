"""The real thing over real HTTP: `gradstep serve` (uvicorn, two worker processes) on a free
loopback port, started for this module and stopped after it."""
from __future__ import annotations

import json
import sys
import time

import httpx
import pytest

from app_testing import ROOT

sys.path.insert(0, str(ROOT / "tests"))
from live_server import LiveServer

SEED = (ROOT / "tests" / "oracle" / "cases" / "s001_variable_cube.py")


@pytest.fixture(scope="module")
def server():
    env = {"GRADSTEP_POOL_SIZE": "1", "GRADSTEP_RATE_LIMIT": "1000", "GRADSTEP_ACCESS_LOG": "1",
           "GRADSTEP_MAX_BODY_BYTES": "4096", "GRADSTEP_FRAME_ANCESTORS": "'none'"}
    with LiveServer(env=env, workers=2, cli=True, start_timeout=90) as live:
        deadline = time.monotonic() + 90          # listening is not ready: wait for a worker
        while httpx.get(live.url + "/readyz", timeout=5).status_code != 200:
            if time.monotonic() > deadline:
                pytest.fail("server not ready:\n" + live.log_text()[-3000:])
            time.sleep(0.3)
        with httpx.Client(base_url=live.url, timeout=60) as client:
            yield client, live


def test_health_and_readiness(server):
    client, _ = server
    assert client.get("/healthz").json() == {"status": "ok"}
    ready = client.get("/readyz").json()
    assert ready["status"] == "ready" and ready["pool_size"] == 1


def test_a_seed_program_over_http(server):
    client, _ = server
    r = client.post("/api/run", json={"code": SEED.read_text(encoding="utf-8")})
    assert r.status_code == 200
    body = r.json()
    expected = (ROOT / "tests" / "oracle" / "expected" / "s001_variable_cube.out").read_text()
    assert body["result"]["stdout"] == expected
    assert body["layout"]["engine"] == "dot" and body["layout"]["svg"].startswith("<svg")


def test_program_errors_and_bad_requests_over_http(server):
    client, _ = server
    r = client.post("/api/run", json={"code": "import torch\ntorch.ones(2).backward()\n"})
    assert r.status_code == 200 and r.json()["result"]["error"]["type"] == "RuntimeError"
    r = client.post("/api/run", content=b"{nope", headers={"content-type": "application/json"})
    assert r.status_code == 400 and r.json()["error"]["code"] == "bad_json"
    r = client.post("/api/run", content=json.dumps({"code": "#" * 5000}),
                    headers={"content-type": "application/json"})
    assert r.status_code == 413 and r.json()["error"]["code"] == "body_too_large"
    assert client.get("/api/nothing").status_code == 404
    assert client.get("/healthz").status_code == 200        # still serving


def test_headers_over_http(server):
    client, _ = server
    r = client.get("/healthz")
    assert "frame-ancestors 'none'" in r.headers["content-security-policy"]
    assert r.headers["x-frame-options"] == "DENY"
    assert r.headers["x-content-type-options"] == "nosniff"
    assert "server" not in r.headers


def test_examples_and_openapi_over_http(server):
    client, _ = server
    examples = client.get("/api/examples").json()
    assert len(examples) >= 10
    one = client.get(f"/api/examples/{examples[0]['id']}").json()
    assert "import torch" in one["code"]
    assert client.get("/openapi.json").json()["openapi"].startswith("3.1")


def test_access_log_lines_are_json(server):
    client, live = server
    rid = client.get("/api/examples").headers["x-request-id"]
    deadline = time.monotonic() + 10
    while rid not in live.log_text() and time.monotonic() < deadline:
        time.sleep(0.1)
    line = next(x for x in live.log_text().splitlines() if rid in x)
    entry = json.loads(line)
    assert entry["path"] == "/api/examples" and entry["status"] == 200
    assert entry["outcome"] == "ok" and entry["method"] == "GET"
