"""Schema-driven API testing: schemathesis generates requests from /openapi.json for every
operation and checks that none gets a server error and every answer matches the schema."""
from __future__ import annotations

import pytest
import schemathesis
from hypothesis import HealthCheck, settings
from schemathesis import checks

from conftest import scale
from gradstep.app.main import create_app
from app_testing import make_settings

APP = create_app(make_settings(pool_size=2, rate_limit=0))
schema = schemathesis.openapi.from_asgi("/openapi.json", APP)


@pytest.fixture(scope="module", autouse=True)
def lifespan():
    # the ASGI transport does not run the app's lifespan: start the pool and templates here
    from fastapi.testclient import TestClient
    with TestClient(APP):
        yield


@schema.parametrize()
@settings(max_examples=scale(12, 150), deadline=None,
          suppress_health_check=list(HealthCheck))
def test_no_server_errors_and_answers_match_the_schema(case):
    case.call_and_validate(checks=[checks.not_a_server_error,
                                   checks.response_schema_conformance,
                                   checks.status_code_conformance,
                                   checks.content_type_conformance])
