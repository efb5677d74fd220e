"""Every seed program (tests/oracle/cases/s00*_*.py) through POST /api/run on the real runner:
the answer carries what PyTorch printed, a valid trace, and a layout of everything it built."""
from __future__ import annotations

import json
import sys

import pytest

from gradstep.app.services.runs import encode_answer
from app_testing import ROOT, fake_client
from gradstep.runner.trace import defined_ids, dump, validate

sys.path.insert(0, str(ROOT / "tests"))
from fidelity import Expected, header, judge

SEEDS = sorted((ROOT / "tests" / "oracle" / "cases").glob("s00*_*.py"))
EXAMPLES = sorted((ROOT / "app" / "examples").glob("*.py"))


def test_the_seed_programs_are_there():
    assert len(SEEDS) >= 30


@pytest.mark.parametrize("case", SEEDS, ids=[c.stem for c in SEEDS])
def test_seed_program_through_api_run(real_client, case):
    r = real_client.post("/api/run", json={"code": case.read_text(encoding="utf-8")})
    assert r.status_code == 200, r.text          # a program's own error is still a 200
    body = r.json()
    result = body["result"]
    problem = judge(case, result["stdout"], result["stderr"], result["exit_code"])
    assert problem is None, problem
    if header(case)["compare"] == "exact":
        assert result["stdout"] == Expected.load(case).out
    if result["exit_code"]:
        assert result["error"]["kind"] == "exception" and result["error"]["type"]
    trace = body["trace"]
    validate(trace)
    layout = body["layout"]
    drawn = set()
    if layout:   # one picture per iteration: every node is in one, or an alias's target
        drawn = {i for p in [layout, *layout["views"]] for i in p["nodes"]}
        drawn |= {i for it in layout["iterations"] for i in (it.get("alias") or {}).values()}
    made = {i for ev in trace["events"] for i in defined_ids(ev)}
    graph_nodes = {i for i in made if i.startswith("n")}
    assert graph_nodes <= drawn, sorted(graph_nodes - drawn)[:5]


@pytest.mark.parametrize("example", EXAMPLES, ids=[e.stem for e in EXAMPLES])
def test_every_builtin_example_runs_cleanly_or_fails_as_intended(real_client, example):
    ex_id = example.stem.split("-", 1)[1]
    code = real_client.get(f"/api/examples/{ex_id}").json()["code"]
    result = real_client.post("/api/run", json={"code": code}).json()["result"]
    if ex_id == "retain-graph":      # the example exists to show this error
        assert result["error"]["type"] == "RuntimeError"
        assert "Trying to backward through the graph a second time" in result["error"]["message"]
    else:
        assert result["exit_code"] == 0, result["stderr"]
        assert result["error"] is None


def test_program_errors_are_200_with_the_error(real_client):
    r = real_client.post("/api/run", json={"code": "import torch\nx = torch.ones(2)\n"
                                                   "x.backward()\n"})
    assert r.status_code == 200
    result = r.json()["result"]
    assert result["exit_code"] == 1 and result["error"]["kind"] == "exception"
    assert result["error"]["line"] == 3
    assert result["stderr"].rstrip().splitlines()[-1].startswith("RuntimeError: ")


def test_refused_programs_are_200_too(real_client):
    r = real_client.post("/api/run", json={"code": "import os\nprint(os.listdir('/'))\n"})
    assert r.status_code == 200
    assert r.json()["result"]["error"]["kind"] == "refused"


def test_a_syntax_error_is_a_result(real_client):
    r = real_client.post("/api/run", json={"code": "def f(:\n"})
    assert r.status_code == 200
    assert r.json()["result"]["exit_code"] == 1
    assert "SyntaxError" in r.json()["result"]["stderr"]


def test_readyz_makes_a_worker_round_trip(real_client):
    r = real_client.get("/readyz")
    assert r.status_code == 200
    assert r.json()["status"] == "ready" and r.json()["ping_ms"] > 0


def test_same_program_is_answered_from_the_cache():
    with fake_client() as c:
        pool = c.app.state.fake_pool
        first = c.post("/api/run", json={"code": "print('cached')"}).json()
        second = c.post("/api/run", json={"code": "print('cached')"}).json()
        assert first == second and pool.runs == 1
        c.post("/api/run", json={"code": "print('other')"})
        assert pool.runs == 2


def test_cache_can_be_turned_off():
    with fake_client(layout_cache_size=0) as c:
        for _ in range(2):
            c.post("/api/run", json={"code": "print('again')"})
        assert c.app.state.fake_pool.runs == 2


def test_lifespan_closes_the_pool():
    c = fake_client()
    with c:
        assert c.post("/api/run", json={"code": "x"}).status_code == 200
    assert c.app.state.fake_pool.closed


def test_the_answer_passes_the_sandbox_trace_bytes_through_unchanged(real_client):
    code = "import torch\nx = torch.ones(2, requires_grad=True)\n(x * 3).sum().backward()\n" \
           "print('grad ü', x.grad)\n"
    r = real_client.post("/api/run", json={"code": code})
    trace = r.json()["trace"]
    # the child's canonical bytes (what `gradstep trace` writes), not a re-encoding
    assert b'"trace":' + dump(trace) in r.content
    assert "ü".encode() in dump(trace)
    assert r.headers["server-timing"].startswith("wait;dur=")


def test_encode_answer_with_trace_bytes_is_the_same_json():
    trace = {"format": "gradstep-trace", "events": [{"kind": "stdout", "text": "é\n"}]}
    data = {"result": {"stdout": "é\n", "error": None}, "trace": trace,
            "layout": {"svg": "<svg/>", "nodes": {}}, "layout_note": None}
    raw = json.dumps(trace, separators=(",", ":")).encode()
    assert json.loads(encode_answer(data, raw)) == json.loads(encode_answer(data)) == data
    assert encode_answer(data, json.dumps(trace, ensure_ascii=False, separators=(",", ":"))
                         .encode()) == encode_answer(data)


def test_a_program_with_a_lone_surrogate_is_refused_in_a_200(real_client):
    r = real_client.post("/api/run", content=b'{"code": "print(1)\\n\\ud800"}',
                         headers={"content-type": "application/json"})
    assert r.status_code == 200, r.text
    assert r.json()["result"]["error"]["kind"] == "refused"
    assert real_client.get("/healthz").status_code == 200
