"""Fixtures for the browser tests: a real uvicorn server on a free loopback port (the app
factory with the real sandbox pool), and pages of the session's Chromium (tests/conftest.py).

Every page a test opens records console errors and uncaught exceptions; the test fails at
teardown if there were any, so "no console errors" is checked everywhere, not in one test.
Screenshots go to artifacts/screenshots/ (gitignored) for people to look at: those the tests
take of what a change shows, and the last page of a failed test.
"""
from __future__ import annotations

import os
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "tests"))
from live_server import LiveServer  # noqa: E402
SHOTS = ROOT / "artifacts" / "screenshots"
# A page is kept as a screenshot when its test fails; GRADSTEP_TEST_SCREENSHOTS=1 keeps every
# test's last page (a screenshot costs the browser 50-150 ms, hundreds of times a run). The
# screenshots a test takes itself, of what people should look at, are always kept.
ALL_SHOTS = os.environ.get("GRADSTEP_TEST_SCREENSHOTS") == "1"


@pytest.fixture(scope="session")
def server():
    """Base URL of a live server; stopped (and waited for) at the end of the session."""
    env = {"GRADSTEP_RATE_LIMIT": "0", "GRADSTEP_ACCESS_LOG": "0", "GRADSTEP_POOL_SIZE": "2"}
    with LiveServer(env=env) as live:
        yield live.url


@pytest.fixture
def context(browser):
    ctx = browser.new_context(viewport={"width": 1440, "height": 900}, accept_downloads=True)
    yield ctx
    ctx.close()


@pytest.fixture
def page(context, server, request):
    """A fresh page; fails the test on any console error or page exception."""
    pg = context.new_page()
    problems: list[str] = []
    pg.on("console", lambda m: problems.append(f"console.{m.type}: {m.text}")
          if m.type in ("error", "warning") else None)
    pg.on("pageerror", lambda e: problems.append(f"pageerror: {e}"))
    pg.base = server
    pg.problems = problems
    yield pg
    call = getattr(request.node, "report_call", None)
    if ALL_SHOTS or call is None or call.failed or problems:
        SHOTS.mkdir(parents=True, exist_ok=True)
        try:
            pg.screenshot(path=str(SHOTS / f"{request.node.name}.png"))
        except Exception:  # a closed page has nothing to show; the test result is what counts
            pass
    assert problems == [], problems
