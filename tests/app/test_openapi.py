"""The OpenAPI document is valid OpenAPI 3.1 and describes every endpoint, each with a
one-line summary."""
from __future__ import annotations

import pytest

from gradstep.app.main import create_app
from app_testing import make_settings

EXPECTED = {("/", "get"), ("/api/run", "post"), ("/api/render", "post"), ("/api/render", "get"),
            ("/api/examples", "get"), ("/api/examples/{example_id}", "get"),
            ("/healthz", "get"), ("/readyz", "get"), ("/api/trace-schema", "get")}


@pytest.fixture(scope="module")
def spec() -> dict:
    return create_app(make_settings()).openapi()


def test_schema_is_valid_openapi_31(spec):
    assert spec["openapi"].startswith("3.1")
    try:
        from openapi_spec_validator import validate
    except ImportError:  # the 3.1 meta-schema then comes from jsonschema's own registry
        import jsonschema
        jsonschema.Draft202012Validator.check_schema(
            {"$defs": spec["components"]["schemas"]})
        assert spec["paths"] and spec["info"]["title"]
    else:
        validate(spec)


def test_every_endpoint_is_documented(spec):
    found = {(path, method) for path, ops in spec["paths"].items() for method in ops}
    assert EXPECTED <= found
    assert "/docs" not in spec["paths"]


def test_every_operation_has_a_one_line_description(spec):
    for path, ops in spec["paths"].items():
        for method, op in ops.items():
            text = op.get("description", "")
            assert text and "\n" not in text.strip(), (method, path, text)


def test_run_documents_its_error_statuses(spec):
    responses = spec["paths"]["/api/run"]["post"]["responses"]
    assert {"200", "400", "413", "422", "429", "503"} <= set(responses)
    schema = responses["413"]["content"]["application/json"]["schema"]
    assert schema["$ref"].endswith("/ErrorBody")


def test_served_schema_equals_the_built_one(client, spec):
    assert client.get("/openapi.json").json()["paths"].keys() == spec["paths"].keys()
