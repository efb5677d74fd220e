"""The runner's hostile corpus (tests/runner/hostile) through the real HTTP API: each program
is answered with a 200 carrying a clear error, its goal (a marker file, a leaked secret, a
PWNED line) did not happen, and the server answers the next honest request normally.
Quick form: every escape and every fourth resource bomb; long form: all of them."""
from __future__ import annotations

import json
from pathlib import Path
from urllib.error import HTTPError
from urllib.request import Request, urlopen

import pytest

from conftest import LONG
from live_server import LiveServer

CORPUS = Path(__file__).resolve().parents[1] / "runner" / "hostile"
SECRET = "gradstep-canary-http-41d2"
HONEST = "import torch\nx = torch.tensor([1.0, 2.0], requires_grad=True)\n(x ** 2).sum().backward()\nprint(x.grad)\n"
bombs = sorted(CORPUS.glob("dos*.py"))
CASES = sorted(CORPUS.glob("esc*.py")) + (bombs if LONG else bombs[::4])


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    folder = tmp_path_factory.mktemp("canary")
    (folder / "secret.txt").write_text(SECRET)
    env = {"GRADSTEP_RATE_LIMIT": "0", "GRADSTEP_POOL_SIZE": "2",
           "GRADSTEP_LIMIT_CPU_SECONDS": "1", "GRADSTEP_LIMIT_WALL_SECONDS": "3",
           "GRADSTEP_TEST_SECRET": SECRET}
    with LiveServer(env=env) as s:
        s.folder = folder
        yield s


def post(url: str, code: str) -> tuple[int, dict]:
    req = Request(url + "/api/run", data=json.dumps({"code": code}).encode(),
                  headers={"Content-Type": "application/json"})
    try:
        with urlopen(req, timeout=60) as r:
            return r.status, json.loads(r.read())
    except HTTPError as err:           # the server's own refusals (413 ...) carry a JSON body
        return err.code, json.loads(err.read())


@pytest.mark.parametrize("path", CASES, ids=[p.stem for p in CASES])
def test_hostile_program_over_http(server, path):
    marker = server.folder / f"marker-{path.stem}"
    source = path.read_text(encoding="utf-8").replace("@MARKER@", str(marker)).replace(
        "@SECRET_FILE@", str(server.folder / "secret.txt"))
    status, body = post(server.url, source)
    if status == 413:                  # too big to accept at all: refused before running
        assert "limit" in body["error"]["message"]
        status, body = post(server.url, HONEST)
        assert status == 200
        return
    assert status == 200
    result = body["result"]
    assert result["exit_code"] == 1 and result["error"]["message"], result
    assert not marker.exists(), "the program wrote its marker file"
    seen = result["stdout"] + result["stderr"] + json.dumps(body.get("trace"))
    assert SECRET not in seen and "PWNED" not in result["stdout"]
    status, body = post(server.url, HONEST)
    assert status == 200 and body["result"]["stdout"] == "tensor([2., 4.])\n"
