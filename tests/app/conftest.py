"""TestClient fixtures: the app around a FakePool (for the server's own policy) and around
the real runner's WorkerPool (for what programs print)."""
from __future__ import annotations

import logging
import sys
from pathlib import Path

import pytest
from fastapi.testclient import TestClient

sys.path.insert(0, str(Path(__file__).parent))   # app_testing, app_fakes

from gradstep.app.main import create_app
from app_fakes import FakePool
from app_testing import fake_client, make_settings


@pytest.fixture
def fake_pool() -> FakePool:
    return FakePool()


@pytest.fixture
def client(fake_pool):
    """The app with a FakePool; lifespan runs, so startup and shutdown are exercised."""
    with fake_client(fake_pool) as c:
        yield c


def roomy_pool(settings):
    """The runner's WorkerPool with time limits far above what the seeds need: the 5000-epoch
    training loop takes 3.5 s of CPU alone, and a loaded CI machine stretches wall time."""
    from gradstep.runner import Limits, WorkerPool

    return WorkerPool(size=settings.pool_size,
                      limits=Limits.from_env(cpu_seconds=60, wall_seconds=180))


@pytest.fixture(scope="session")
def real_client():
    """The app with the runner's real WorkerPool (one per test session: it forks workers)."""
    with TestClient(create_app(make_settings(pool_size=2), pool_factory=roomy_pool)) as c:
        yield c


@pytest.fixture
def access_lines(caplog):
    """The JSON access-log lines written during a test."""
    caplog.set_level(logging.INFO, logger="gradstep.access")
    return lambda: [r.getMessage() for r in caplog.records if r.name == "gradstep.access"]
