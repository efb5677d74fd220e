"""Presenter mode on a projector (1280x720, 1920x1080), in both languages, driven from the
keyboard alone: the boxes' words are at least 16 px, the working node is in view, the line the
step ran shows as a strip, the sentence is large and the panels scale with it."""
from __future__ import annotations

import pytest

pytestmark = pytest.mark.browser
SIZES = [(1280, 720), (1920, 1080)]


def smallest_label_px(pg) -> float:
    """The height on screen of the smallest word in the graph's boxes that is in view."""
    return pg.evaluate("""() => { const host = document.querySelector('#graph').getBoundingClientRect();
        const hs = [...document.querySelectorAll('#graph .node text')]
          .filter((t) => t.textContent.trim())       // a value row with nothing in it yet
          .map((t) => t.getBoundingClientRect())
          .filter((r) => r.bottom > host.top && r.top < host.bottom && r.right > host.left && r.left < host.right)
          .map((r) => r.height);
        return Math.min(...hs); }""")


def in_view(pg, node_id: str) -> bool:
    return pg.evaluate("""(id) => { const host = document.querySelector('#graph').getBoundingClientRect();
        const r = document.getElementById(id).getBoundingClientRect();
        return r.left >= host.left - 1 && r.right <= host.right + 1 && r.top >= host.top - 1
          && r.bottom <= host.bottom + 1; }""", node_id)


@pytest.mark.parametrize("lang", ["en", "zh"])
@pytest.mark.parametrize("size", SIZES, ids=lambda s: f"{s[0]}x{s[1]}")
def test_presenter_mode_reads_from_the_back_of_the_room(page, lang, size):
    page.set_viewport_size({"width": size[0], "height": size[1]})
    page.goto(f"{page.base}/?lang={lang}")
    page.wait_for_selector("body.is-ready", timeout=30000)
    page.locator("#graph").focus()
    page.keyboard.press("p")                         # keyboard alone from here on
    assert page.evaluate("() => document.body.classList.contains('is-presenter')")
    assert not page.locator("#editor").is_visible()
    page.wait_for_timeout(300)                       # the pane resized: the view is re-fitted
    for _ in range(3):
        page.keyboard.press("ArrowRight")
    page.keyboard.press("b")                         # the first backward pass
    page.keyboard.press("ArrowRight")
    page.keyboard.press("ArrowRight")
    assert smallest_label_px(page) >= 16
    active = page.evaluate("() => document.querySelector('[data-gs-player]').gsPlayer.player.model.state.active")
    assert active and in_view(page, active)
    strip = page.locator("#code-strip")
    assert strip.is_visible()
    assert "out.backward()" in strip.inner_text()
    assert strip.locator("code").bounding_box()["height"] >= 16
    assert float(page.evaluate("() => parseFloat(getComputedStyle(document.querySelector('#narration')).fontSize)")) >= 24
    # the panels' numbers grow too
    result = page.locator("#vjp .vjp-result").first
    assert result.bounding_box()["height"] >= 16
    # nothing of the graph pane or the panels is cut by the window
    for sel in (".pane-graph", ".controls", "#narration"):
        box = page.locator(sel).bounding_box()
        assert box["y"] + box["height"] <= size[1] + 1, sel
    page.keyboard.press("p")
    assert not page.evaluate("() => document.body.classList.contains('is-presenter')")
    assert page.locator("#editor").is_visible()
