"""What `gradstep serve` hands uvicorn: the h11 protocol with the head deadline, the head-size
bound and the connection bound, all from the settings."""
from __future__ import annotations

import sys

from gradstep.app import server
from gradstep.app.http_protocol import DeadlineH11Protocol


def test_serve_bounds_heads_and_connections(monkeypatch):
    seen = {}
    fake = type(sys)("uvicorn")
    fake.run = lambda *args, **kwargs: seen.update(kwargs)
    monkeypatch.setitem(sys.modules, "uvicorn", fake)
    monkeypatch.delenv("GRADSTEP_SANDBOX_STRICT", raising=False)
    for name in ("GRADSTEP_HOST", "GRADSTEP_PORT", "GRADSTEP_WEB_WORKERS"):
        monkeypatch.delenv(name, raising=False)      # serve() sets them; undone afterwards
    monkeypatch.setenv("GRADSTEP_MAX_HEADER_BYTES", "8192")
    monkeypatch.setenv("GRADSTEP_MAX_CONNECTIONS", "77")
    server.get_settings.cache_clear()
    try:
        assert server.serve(port=0) == 0
    finally:
        server.get_settings.cache_clear()
    module, _, name = seen["http"].partition(":")
    assert getattr(__import__(module, fromlist=[name]), name) is DeadlineH11Protocol
    assert seen["h11_max_incomplete_event_size"] == 8192
    assert seen["limit_concurrency"] == 77
