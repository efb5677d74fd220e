"""A course page of another origin that embeds the player: refused by the default
frame-ancestors, the frame shows why and how to allow it instead of a blank error page."""
from __future__ import annotations

import functools
import http.server
import threading

import pytest

pytestmark = pytest.mark.browser


@pytest.fixture
def course_site(tmp_path):
    """A static "course page" server on loopback; `localhost` makes it another site than the
    app's 127.0.0.1 (and loopback to loopback passes Chromium's local network checks)."""
    handler = functools.partial(http.server.SimpleHTTPRequestHandler, directory=str(tmp_path))
    handler.log_message = lambda *a: None
    httpd = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
    thread = threading.Thread(target=httpd.serve_forever, daemon=True)
    thread.start()
    yield tmp_path, f"http://localhost:{httpd.server_address[1]}"
    httpd.shutdown()
    httpd.server_close()


@pytest.mark.parametrize("lang,words", [("en", "does not allow"), ("zh", "不允许")])
def test_a_refused_frame_explains_itself(page, course_site, lang, words):
    folder, origin = course_site
    (folder / "course.html").write_text(
        f'<!doctype html><title>Course</title><link rel="icon" href="data:,"><h1>Week 3</h1>'
        f'<iframe id="player" '
        f'src="{page.base}/?embed=1&lang={lang}" width="900" height="560"></iframe>')
    page.goto(f"{origin}/course.html")
    frame = page.frame_locator("#player")
    text = frame.locator("main").inner_text(timeout=15000)
    assert words in text and origin in text
    assert "GRADSTEP_FRAME_ANCESTORS" in text
    assert "embed=1" in frame.locator("a[target=_blank]").get_attribute("href")
