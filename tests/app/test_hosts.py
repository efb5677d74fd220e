"""The server answers only to the Host names it is known by (app/services/hosts.py): a page
that renamed itself to 127.0.0.1 (DNS rebinding) gets a 403 that says why."""
from __future__ import annotations

import pytest
from fastapi.testclient import TestClient

from gradstep.app.main import create_app
from gradstep.app.services.hosts import HostCheck
from app_fakes import FakePool
from app_testing import make_settings


def client_for(base_url: str, **settings) -> TestClient:
    pool = FakePool()
    app = create_app(make_settings(**settings), pool_factory=lambda s: pool)
    app.state.fake_pool = pool
    return TestClient(app, base_url=base_url)


@pytest.mark.parametrize("url", ["http://localhost:8000", "http://127.0.0.1:8000",
                                 "http://[::1]:8000", "http://LOCALHOST", "http://testserver"])
def test_the_names_a_laptop_server_is_known_by_are_answered(url):
    with client_for(url) as c:
        assert c.get("/healthz").status_code == 200
        assert c.post("/api/run", json={"code": "x = 1\n"}).status_code == 200


@pytest.mark.parametrize("url", ["http://attacker.example:8000", "http://127.0.0.1.nip.io",
                                 "http://192.168.1.5:8000", "http://localhost.attacker.example"])
def test_other_names_are_refused_with_a_clear_message(url):
    with client_for(url) as c:
        for r in (c.get("/"), c.post("/api/run", json={"code": "x = 1\n"}),
                  c.get("/static/js/main.js")):
            assert r.status_code == 403
            error = r.json()["error"]
            assert error["code"] == "host_not_allowed"
            assert "GRADSTEP_ALLOWED_HOSTS=" in error["message"]
            assert "localhost" in error["message"]
        assert c.app.state.fake_pool.runs == 0


def test_a_listed_name_and_star_are_answered():
    with client_for("http://teacher.local:8000", allowed_hosts="testserver, teacher.local") as c:
        assert c.get("/healthz").status_code == 200
    with client_for("http://anything.example", allowed_hosts="*") as c:
        assert c.get("/healthz").status_code == 200


def test_a_server_bound_to_the_network_answers_to_numeric_addresses_only():
    with client_for("http://192.168.1.5:8000", host="0.0.0.0") as c:
        assert c.get("/healthz").status_code == 200
    with client_for("http://[fe80::1]:8000", host="::") as c:
        assert c.get("/healthz").status_code == 200
    with client_for("http://school.example", host="0.0.0.0") as c:
        r = c.get("/healthz")
        assert r.status_code == 403 and "any numeric address" in r.json()["error"]["message"]


def test_the_bound_address_is_answered():
    assert HostCheck(bound="10.1.2.3", extra="").allows("10.1.2.3:8000")
    assert HostCheck(bound="gradstep.lan", extra="").allows("GRADSTEP.lan:80")
    assert not HostCheck(bound="127.0.0.1", extra="").allows("10.1.2.3")
    assert HostCheck(bound="127.0.0.1", extra="").allows(None)      # HTTP/1.0: no Host


class PartialPool(FakePool):
    """A pool whose sandbox reports neither seccomp nor Landlock."""

    layers = {"rlimits": True, "seccomp": False, "landlock": False}


def partial_client(pool: FakePool) -> TestClient:
    app = create_app(make_settings(), pool_factory=lambda s: pool)
    return TestClient(app, base_url="http://127.0.0.1:8000")


def test_without_os_layers_another_sites_page_cannot_start_a_run():
    pool = PartialPool()
    with partial_client(pool) as c:
        for site in ("cross-site", "same-site"):
            headers = {"sec-fetch-site": site}
            r = c.get("/api/render", params={"code": "x = 1\n"}, headers=headers)
            assert r.status_code == 403 and r.json()["error"]["code"] == "cross_site_run"
            assert "press Run" in r.json()["error"]["message"]
            assert c.post("/api/run", json={"code": "x = 2\n"},
                          headers=headers).status_code == 403
        assert pool.runs == 0
        # the page itself, and clients that are not browsers, still run programs
        assert c.get("/api/render", params={"code": "x = 1\n"},
                     headers={"sec-fetch-site": "same-origin"}).status_code == 200
        assert c.post("/api/run", json={"code": "x = 3\n"}).status_code == 200
        assert c.get("/", headers={"sec-fetch-site": "cross-site"}).status_code == 200
        assert 'data-sandbox="partial"' in c.get("/").text


def test_with_every_os_layer_other_sites_may_show_a_graph():
    pool = PartialPool()
    pool.layers = {"rlimits": True, "seccomp": True, "landlock": True}
    with partial_client(pool) as c:
        r = c.get("/api/render", params={"code": "x = 1\n"},
                  headers={"sec-fetch-site": "cross-site"})
        assert r.status_code == 200
        assert 'data-sandbox="partial"' not in c.get("/").text
