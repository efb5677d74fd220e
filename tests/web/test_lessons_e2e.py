"""Lesson pages in real Chromium: the lesson's program runs in the player, every "watch for"
button jumps to a step of the kind it names, the numbers on screen are the lesson's, and the
Chinese page reads in Chinese."""
import re

import pytest
from player_page import open_lesson

from gradstep.app.services.lessons import load_lessons

pytestmark = pytest.mark.browser
LESSONS = load_lessons()


def current_kind(pg) -> str:
    return pg.evaluate("""() => { const p = document.querySelector('[data-gs-player]').gsPlayer
        .player.model; return p.trace.events[p.index].kind; }""")


@pytest.mark.parametrize("lesson", LESSONS, ids=[lesson.id for lesson in LESSONS])
def test_every_pointer_jumps_to_its_kind(page, lesson):
    open_lesson(page, lesson.id, timeout=30000)
    assert page.input_value("#editor") == lesson.program
    for i, pointer in enumerate(lesson.watch):
        page.click(f'[data-watch="{i}"]')
        assert current_kind(page) == pointer.event
        step = int(page.get_attribute(f'[data-watch="{i}"]', "data-step"))
        assert page.get_attribute("#step-label", "data-step") == str(step + 1)


def test_accumulation_lesson_shows_before_plus_added(page):
    open_lesson(page, "accumulation", timeout=30000)
    page.click('[data-watch="0"]')
    narration = page.inner_text("#narration")
    assert "[1, 1] + [1, 1] = [2, 2]" in narration


def test_chinese_lesson_and_navigation(page):
    open_lesson(page, "vjp-by-hand", "zh", timeout=30000)
    assert page.inner_text("h1") == "手算 v·J"
    assert "留意" in page.inner_text(".watch")
    page.click("#lesson-next")
    page.wait_for_url(re.compile(r"/lessons/jacobian-rows\?lang=zh$"))
    assert page.inner_text("h1") == "一行一行求雅可比矩阵"
