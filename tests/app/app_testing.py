"""Helpers the app tests import by name (conftest.py only holds fixtures: under pytest's
importlib mode every test folder's conftest is a different module)."""
from __future__ import annotations

import asyncio
import threading
from pathlib import Path

from fastapi.testclient import TestClient

from gradstep.app.main import create_app
from gradstep.app.settings import Settings
from app_fakes import FakePool

ROOT = Path(__file__).resolve().parents[2]
# the name TestClient sends in Host: the test server answers to it as to "localhost"
TEST_HOST = "testserver"


def make_settings(**overrides) -> Settings:
    """Settings for tests, independent of the developer's GRADSTEP_* variables."""
    base = dict(rate_limit=1000, queue_timeout=5.0, pool_size=1, web_workers=1,
                access_log=True, precompute=False, allowed_hosts=TEST_HOST)
    base.update(overrides)
    return Settings(_env_file=None, **base)


def fake_client(pool: FakePool | None = None, **overrides) -> TestClient:
    """The app around a FakePool (use it in a `with` block so the lifespan runs)."""
    pool = pool or FakePool()
    app = create_app(make_settings(**overrides), pool_factory=lambda s: pool)
    app.state.fake_pool = pool
    return TestClient(app)


def run_in_own_loop(coro, timeout: float = 20.0):
    """Run a test's coroutine to its end on a new event loop in a thread of its own, and
    return what it returned (or raise what it raised); a failing one does not wait for the
    tasks it left holding.

    A thread of its own: a pytest worker that ran a browser test first has Playwright's
    event loop running in its main thread, where a second loop refuses to start."""
    outcome: dict = {}

    def target():
        loop = asyncio.new_event_loop()
        try:
            outcome["value"] = loop.run_until_complete(asyncio.wait_for(coro, timeout))
        except BaseException as e:  # raised again in the test's thread
            outcome["error"] = e
        finally:
            loop.close()

    thread = threading.Thread(target=target)
    thread.start()
    thread.join()
    if "error" in outcome:
        raise outcome["error"]
    return outcome.get("value")
