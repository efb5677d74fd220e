"""Generated programs (Hypothesis) and random bytes through the runner and through the API:
never a crash or a hang, always a result, and every failure a clear `Type: message`."""
from __future__ import annotations

import json

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from conftest import scale
from programs import PIECES
from gradstep.runner import Limits, WorkerPool

LIMITS = Limits(cpu_seconds=2, wall_seconds=4, memory_mb=256)
FUZZ = settings(max_examples=scale(25, 300), deadline=None,
                suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture])


@pytest.fixture(scope="module")
def pool():
    p = WorkerPool(size=2, limits=LIMITS)
    yield p
    p.close()


def assert_clear(result) -> None:
    """The contract for any program: an exit code of 0 or 1, and when 1, a named error."""
    assert result.exit_code in (0, 1), result
    if result.exit_code:
        assert result.error and result.error["type"] and result.error["message"], result
        assert result.error["kind"] != "crash", result
        last = [line for line in result.stderr.splitlines() if line.strip()][-1]
        assert last.startswith(result.error["type"]), (last, result.error)


programs = st.lists(st.sampled_from(PIECES), min_size=1, max_size=8).map(
    lambda parts: "import torch\n" + "\n".join(parts) + "\n")


@FUZZ
@given(source=programs)
def test_generated_programs_always_end_clearly(pool, source):
    assert_clear(pool.run(source))


@FUZZ
@given(blob=st.binary(max_size=400))
def test_random_bytes_are_refused_or_run_never_crash(pool, blob):
    assert_clear(pool.run(blob.decode("utf-8", "replace")))


@FUZZ
@given(text=st.text(max_size=300))
def test_random_text_is_refused_or_run_never_crash(pool, text):
    assert_clear(pool.run(text))


json_values = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False) | st.text(max_size=40),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=8), inner,
                                                                 max_size=4),
    max_leaves=12)


@pytest.fixture(scope="module")
def api():
    from fastapi.testclient import TestClient
    from gradstep.app.main import create_app
    from app_testing import make_settings
    with TestClient(create_app(make_settings(pool_size=2, rate_limit=0))) as client:
        yield client


def assert_api_answer(response) -> None:
    assert response.status_code < 500 or response.status_code == 503, response.text
    body = response.json()
    if response.status_code != 200:
        assert body["error"]["message"], body
    else:
        assert "result" in body and "trace" in body


@FUZZ
@given(body=json_values)
def test_api_survives_any_json_body(api, body):
    assert_api_answer(api.post("/api/run", content=json.dumps(body),
                               headers={"Content-Type": "application/json"}))


@FUZZ
@given(blob=st.binary(max_size=600))
def test_api_survives_any_bytes(api, blob):
    assert_api_answer(api.post("/api/run", content=blob,
                               headers={"Content-Type": "application/json"}))


@FUZZ
@given(source=programs)
def test_api_runs_generated_programs(api, source):
    response = api.post("/api/run", json={"code": source})
    assert response.status_code == 200, response.text
    result = response.json()["result"]
    assert result["exit_code"] in (0, 1)
