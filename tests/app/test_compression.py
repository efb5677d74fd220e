"""gzip: a client that sends Accept-Encoding: gzip gets compressed answers (runs, pages,
scripts, styles), one that does not gets them plain, and both decode to the same bytes."""
from __future__ import annotations

import gzip
import json

import httpx
import pytest

from gradstep.app.services.compression import accepts_gzip
from app_testing import fake_client


def raw_get(client, method: str, url: str, encoding: str | None, **kwargs) -> httpx.Response:
    """The response with its body as sent (TestClient would otherwise decode gzip itself)."""
    headers = {"accept-encoding": encoding} if encoding else {"accept-encoding": "identity"}
    with client.stream(method, url, headers=headers, **kwargs) as r:
        r.raw_body = b"".join(r.iter_raw())
    return r


@pytest.mark.parametrize("url", ["/", "/static/js/player.js", "/static/css/app.css",
                                 "/api/examples", "/lessons"])
def test_pages_and_static_files_are_gzipped_when_asked(url):
    with fake_client() as c:
        zipped = raw_get(c, "GET", url, "gzip, deflate")
        plain = raw_get(c, "GET", url, None)
    assert zipped.status_code == plain.status_code == 200
    assert zipped.headers["content-encoding"] == "gzip"
    assert "accept-encoding" in zipped.headers["vary"].lower()
    assert "content-encoding" not in plain.headers
    assert gzip.decompress(zipped.raw_body) == plain.raw_body
    assert len(zipped.raw_body) < len(plain.raw_body)


def test_run_answer_is_gzipped_when_asked_and_plain_otherwise():
    code = {"code": "print('gzip me')\n" + "# padding\n" * 50}
    with fake_client() as c:
        zipped = raw_get(c, "POST", "/api/run", "gzip", json=code)
        plain = raw_get(c, "POST", "/api/run", None, json=code)      # from the cache now
        refused = raw_get(c, "POST", "/api/run", "gzip;q=0, br", json=code)
    assert zipped.headers["content-encoding"] == "gzip"
    assert "content-encoding" not in plain.headers
    assert "content-encoding" not in refused.headers
    assert gzip.decompress(zipped.raw_body) == plain.raw_body == refused.raw_body
    assert json.loads(plain.raw_body)["result"]["stdout"] == "ok\n"
    assert int(zipped.headers["content-length"]) == len(zipped.raw_body)


def test_small_answers_are_not_compressed():
    with fake_client() as c:
        r = raw_get(c, "GET", "/healthz", "gzip")
    assert r.status_code == 200 and "content-encoding" not in r.headers


@pytest.mark.parametrize("header, expected", [
    ("gzip", True), ("GZIP", True), ("deflate, gzip;q=0.5", True), ("*", True),
    ("x-gzip", True), ("identity", False), ("gzip;q=0", False), ("gzip;q=0.0, *", False),
    ("*;q=0", False), ("br", False), ("gzip;q=nonsense", False), ("", False)])
def test_accept_encoding_is_read_with_its_q_values(header, expected):
    assert accepts_gzip(header) is expected


def test_a_cached_compressed_answer_still_feeds_render_and_lessons():
    with fake_client() as c:
        code = {"code": "print('once')"}
        first = c.post("/api/run", json=code).json()
        assert c.app.state.fake_pool.runs == 1
        svg = c.post("/api/render", json=code)            # from the cache: decoded from gzip
        assert svg.status_code == 200 and svg.content.lstrip().startswith(b"<?xml")
        assert c.app.state.fake_pool.runs == 1
        again = c.post("/api/run", json=code, headers={"accept-encoding": "identity"}).json()
        assert again == first
        lesson_id = c.get("/api/lessons").json()[0]["id"]
        runs = [c.get(f"/api/lessons/{lesson_id}/run").json() for _ in range(2)]
        assert runs[0] == runs[1] and runs[0]["run"]["result"]["stdout"] == "ok\n"
