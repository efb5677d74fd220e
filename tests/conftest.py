"""Fixtures shared by every browser test (tests/web, tests/security): Debian's Chromium,
driven by Playwright, launched once per session.

One Playwright for the whole session, not one per test file: the sync API runs its own event
loop, and a second `sync_playwright()` started while the first is open fails ("using Playwright
Sync API inside the asyncio loop"), so which test ran first would decide which one fails.
"""
from __future__ import annotations

import os
import shutil

import pytest

CHROMIUM_ARGS = ["--no-sandbox", "--disable-gpu", "--disable-background-networking",
                 "--disable-component-update", "--disable-sync", "--no-first-run"]


def _chromium() -> str:
    path = os.environ.get("GRADSTEP_CHROMIUM") or shutil.which("chromium") \
        or shutil.which("chromium-browser")
    if not path:
        raise RuntimeError("the browser tests need Chromium (Debian package 'chromium'), "
                           "or GRADSTEP_CHROMIUM naming a Chromium binary")
    return path


class _Browser:
    """The session's Chromium, whose new contexts prefer reduced motion unless a test asks
    otherwise: the graph's flowing-gradient dashes and its transitions repaint a page many
    times a second while it shows a backward step, which the tests (checking states, not
    motion) would pay for in every page they leave open. tests/web/test_accessibility.py
    checks both preferences."""

    def __init__(self, chromium):
        self._chromium = chromium

    def new_context(self, **options):
        options.setdefault("reduced_motion", "reduce")
        return self._chromium.new_context(**options)

    def new_page(self, **options):
        options.setdefault("reduced_motion", "reduce")
        return self._chromium.new_page(**options)

    def __getattr__(self, name):
        return getattr(self._chromium, name)


@pytest.fixture(scope="session")
def browser():
    from playwright.sync_api import sync_playwright
    with sync_playwright() as p:
        b = p.chromium.launch(executable_path=_chromium(), args=CHROMIUM_ARGS)
        yield _Browser(b)
        b.close()


@pytest.hookimpl(wrapper=True, tryfirst=True)
def pytest_runtest_makereport(item, call):
    """Keep each phase's report on the test item, so a fixture's teardown can tell whether
    the test failed (the browser pages keep a screenshot of a failure)."""
    report = yield
    setattr(item, f"report_{report.when}", report)
    return report

