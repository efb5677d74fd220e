"""Lessons that move with the text: clicking or scrolling to a passage moves the player to its
step, stepping marks the passage of the current step, and "predict, then step" questions are
answered by choosing or typing, then checked by stepping to the step that shows the answer; in
both languages at 1440x900 and 1280x720."""
from __future__ import annotations

import pytest
from player_page import open_lesson

pytestmark = pytest.mark.browser
CASES = [(lang, size) for lang in ("en", "zh") for size in ((1440, 900), (1280, 720))]
IDS = [f"{lang}-{w}x{h}" for lang, (w, h) in CASES]


def kind_and_step(pg):
    return pg.evaluate("""() => { const m = document.querySelector('[data-gs-player]').gsPlayer
        .player.model; return [m.trace.events[m.index].kind, m.index]; }""")


def current_passage(pg):
    return pg.evaluate("""() => { const c = document.querySelector('.passage.is-current');
        return c ? Number(c.dataset.passage) : -1; }""")


@pytest.mark.parametrize("lang,size", CASES, ids=IDS)
def test_passages_and_steps_move_together(page, lang, size):
    open_lesson(page, "accumulation", lang, size)
    passages = page.locator("[data-passage]")
    assert passages.count() == 5
    passages.nth(2).click()                        # "a second backward adds"
    kind, _ = kind_and_step(page)
    assert kind == "accumulate"
    assert current_passage(page) == 2
    # stepping on to the zero_() step marks the next passage and keeps the page still
    page.locator("#graph").focus()
    while kind_and_step(page)[0] != "grad_reset":
        page.keyboard.press("ArrowRight")
    assert current_passage(page) == 3
    assert page.evaluate("() => document.scrollingElement.scrollTop") == 0
    # scrolling the text to the last passage moves the player to its step
    page.evaluate("""() => { const col = document.querySelector('.lesson-text');
        const el = document.querySelector('[data-passage="4"]');
        col.scrollTop = el.offsetTop - col.clientHeight / 2 + el.offsetHeight / 2; }""")
    page.wait_for_timeout(600)
    kind, _ = kind_and_step(page)
    assert kind == "grad_reset" and current_passage(page) == 4


@pytest.mark.parametrize("lang,size", CASES, ids=IDS)
def test_predict_then_step(page, lang, size):
    open_lesson(page, "accumulation", lang, size)
    first, second = page.locator("[data-question]").nth(0), page.locator("[data-question]").nth(1)
    check = first.locator(".check")
    assert check.is_disabled()
    first.locator('[data-choice="0"]').click()      # [1., 1.]: the wrong prediction
    check.click()
    assert kind_and_step(page)[0] == "accumulate"
    assert first.get_attribute("data-verdict") == "wrong"
    assert "[2., 2.]" in first.locator(".verdict").inner_text()
    # the text stays at the question, so its verdict is in view
    box = first.locator(".verdict").bounding_box()
    column = page.locator(".lesson-text").bounding_box()
    assert column["y"] <= box["y"] and box["y"] + box["height"] <= column["y"] + column["height"]
    first.locator('[data-choice="1"]').click()
    check.click()
    assert first.get_attribute("data-verdict") == "right"
    # typed: the numbers count, not the spacing
    second.locator(".typed-answer").fill("tensor([1.,1.])")
    second.locator(".check").click()
    assert second.get_attribute("data-verdict") == "right"
    narration = page.inner_text("#narration")
    assert "[1, 1]" in narration


def test_which_node_fails(page):
    open_lesson(page, "retain-graph", "en", (1440, 900))
    q = page.locator("[data-question]").nth(1)
    q.locator("[data-choice]", has_text="MulBackward0").click()
    q.locator(".check").click()
    assert kind_and_step(page)[0] == "error"
    assert q.get_attribute("data-verdict") == "right"
    assert page.locator("#graph .node.is-error").count() >= 1
