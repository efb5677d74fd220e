"""A frame that GRADSTEP_FRAME_ANCESTORS refuses explains itself: the server recognises it from
the browser's fetch metadata and answers a page that may be framed, saying how to allow it."""
from __future__ import annotations

import pytest

from app_testing import fake_client

FRAME = {"sec-fetch-dest": "iframe", "sec-fetch-site": "cross-site",
         "referer": "https://lms.example.edu/course/7"}


@pytest.mark.parametrize("lang,words", [("en", "does not allow"), ("zh", "不允许")])
def test_a_refused_frame_gets_an_explanation_it_may_show(lang, words):
    with fake_client() as client:
        r = client.get(f"/?embed=1&lang={lang}", headers=FRAME)
    assert r.status_code == 200
    assert words in r.text and "https://lms.example.edu" in r.text
    assert "GRADSTEP_FRAME_ANCESTORS" in r.text
    assert "frame-ancestors *" in r.headers["content-security-policy"]
    assert "script-src 'self'" in r.headers["content-security-policy"]
    assert "x-frame-options" not in r.headers
    assert 'target="_blank"' in r.text and "embed=1" in r.text


def test_an_allowed_embedder_gets_the_app():
    with fake_client(frame_ancestors="'self' https://lms.example.edu") as client:
        r = client.get("/?embed=1", headers=FRAME)
    assert 'data-gs-player' in r.text
    assert "frame-ancestors 'self' https://lms.example.edu" in r.headers["content-security-policy"]


@pytest.mark.parametrize("headers", [
    {},                                                          # a plain visit
    {"sec-fetch-dest": "document", "sec-fetch-site": "cross-site"},   # a link from elsewhere
    {"sec-fetch-dest": "iframe", "sec-fetch-site": "same-origin"},    # the app framing itself
])
def test_everything_else_gets_the_app_with_the_usual_policy(headers):
    with fake_client() as client:
        r = client.get("/", headers=headers)
    assert 'data-gs-player' in r.text
    assert r.headers["x-frame-options"] == "SAMEORIGIN"


def test_without_a_referrer_it_explains_only_when_no_other_site_is_allowed():
    frame = {"sec-fetch-dest": "iframe", "sec-fetch-site": "cross-site"}
    with fake_client() as client:
        assert "GRADSTEP_FRAME_ANCESTORS" in client.get("/", headers=frame).text
    with fake_client(frame_ancestors="https://lms.example.edu") as client:
        assert 'data-gs-player' in client.get("/", headers=frame).text
