"""axe-core (vendored for the tests only, tests/web/vendor/axe_core) finds no serious or critical violation on the
player, the lessons index, every lesson and presenter mode, in English and Chinese, at
1440x900 and 1280x720; and the page's keyboard help opens on `?`."""
from __future__ import annotations

import json
from pathlib import Path
from urllib.parse import quote

import pytest
from player_page import wait_player

from gradstep.app.services.lessons import load_lessons

pytestmark = pytest.mark.browser
AXE_FILE = Path(__file__).resolve().parent / "vendor" / "axe_core" / "axe-4.14.1.min.js"
# A same-origin address the test answers itself (the page's CSP allows scripts from 'self'
# only); the app does not ship axe-core.
AXE = "/__tests__/axe.min.js"
LESSONS = load_lessons()
SIZES = [(1440, 900), (1280, 720)]


def serious_violations(pg) -> list[str]:
    """axe's serious and critical violations, one readable line per rule."""
    if not pg.evaluate("() => typeof window.axe === 'object'"):
        pg.route(f"**{AXE}", lambda route: route.fulfill(
            path=AXE_FILE, content_type="application/javascript"))
        pg.add_script_tag(url=AXE)
    found = pg.evaluate("""async () => (await axe.run(document, {resultTypes: ['violations']}))
        .violations.filter((v) => v.impact === 'serious' || v.impact === 'critical')
        .map((v) => ({id: v.id, impact: v.impact,
                      nodes: v.nodes.slice(0, 3).map((n) => n.target.join(' '))}))""")
    return [json.dumps(v) for v in found]


@pytest.mark.parametrize("lang", ["en", "zh"])
@pytest.mark.parametrize("size", SIZES, ids=lambda s: f"{s[0]}x{s[1]}")
def test_player_and_presenter_mode(page, lang, size):
    page.set_viewport_size({"width": size[0], "height": size[1]})
    page.goto(f"{page.base}/?lang={lang}")
    wait_player(page)
    assert serious_violations(page) == []
    page.keyboard.press("End")           # the backward pass's pills, freed boxes, panels
    assert serious_violations(page) == []
    page.keyboard.press("p")
    assert page.evaluate("() => document.body.classList.contains('is-presenter')")
    assert serious_violations(page) == []


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_lessons_index(page, lang):
    page.goto(f"{page.base}/lessons?lang={lang}")
    assert page.locator("h1").count() == 1
    assert serious_violations(page) == []


@pytest.mark.parametrize("lesson", LESSONS, ids=[lesson.id for lesson in LESSONS])
def test_every_lesson(page, lesson):
    # Each language is opened once, at one size, and checked again after the window is
    # resized to the other, as a learner resizing it would see the page.
    for lang, sizes in (("en", SIZES), ("zh", SIZES[::-1])):
        page.set_viewport_size({"width": sizes[0][0], "height": sizes[0][1]})
        page.goto(f"{page.base}/lessons/{lesson.id}?lang={lang}")
        wait_player(page)
        page.keyboard.press("End")
        assert serious_violations(page) == [], (lang, sizes[0])
        page.set_viewport_size({"width": sizes[1][0], "height": sizes[1][1]})
        page.evaluate("() => new Promise((done) => requestAnimationFrame(() => requestAnimationFrame(done)))")
        assert serious_violations(page) == [], (lang, sizes[1])


@pytest.mark.parametrize("lang", ["en", "zh"])
@pytest.mark.parametrize("size", SIZES, ids=lambda s: f"{s[0]}x{s[1]}")
def test_keyboard_help_opens_on_question_mark_and_closes_on_escape(page, lang, size):
    page.set_viewport_size({"width": size[0], "height": size[1]})
    page.goto(f"{page.base}/?lang={lang}")
    wait_player(page)
    page.locator("#graph").focus()
    assert not page.locator("#help").is_visible()
    page.keyboard.press("?")
    help_box = page.locator("#help")
    assert help_box.is_visible()
    box = help_box.bounding_box()            # the whole list fits in the window
    assert box["y"] >= 0 and box["y"] + box["height"] <= size[1]
    text = help_box.inner_text()
    assert ("Keyboard shortcuts" if lang == "en" else "键盘快捷键") in text
    for key in ("Home", "End", "Space", "Ctrl", "Enter"):
        assert key in text
    assert serious_violations(page) == []
    page.keyboard.press("Escape")
    assert not help_box.is_visible()
    # typed into the editor, ? is a character of the program, not a shortcut
    page.locator("#editor").focus()
    page.keyboard.press("End")
    page.keyboard.type("?")
    assert not help_box.is_visible()
    assert page.input_value("#editor").endswith("?")


def test_keyboard_help_on_lesson_pages_and_the_button(page):
    page.goto(f"{page.base}/lessons?lang=zh")
    page.keyboard.press("?")
    assert page.locator("#help").is_visible()
    assert "键盘快捷键" in page.locator("#help").inner_text()
    page.click("#help-close")
    assert not page.locator("#help").is_visible()
    page.goto(f"{page.base}/lessons/retain-graph")
    wait_player(page)
    page.click("#help-open")
    assert page.locator("#help").is_visible()


TRANSFORMS = ("import torch\nfrom torch.func import jacrev, jvp\n\n\ndef f(x):\n"
              "    return torch.stack([x[0] * x[1], x[0].sin()])\n\n\n"
              "x = torch.tensor([1.0, 2.0])\nJ = jacrev(f)(x)\n"
              "out, t = jvp(f, (x,), (torch.tensor([1.0, 0.0]),))\n")


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_transform_panels(page, lang):
    page.goto(f"{page.base}/?lang={lang}&code=" + quote(TRANSFORMS))
    wait_player(page)
    step = page.evaluate("""() => {
        const c = document.querySelector('[data-gs-player]').gsPlayer;
        const ev = c.player.model.trace.events.filter((e) => e.kind === 'transform_step').at(-1);
        c.player.go(ev.seq); return ev.seq; }""")
    assert step > 0
    assert page.locator("#jvp").is_visible() and page.locator("#transforms").is_visible()
    assert serious_violations(page) == []


@pytest.mark.parametrize("motion,flowing", [("no-preference", "gs-flow"), ("reduce", "none")])
def test_the_flowing_gradient_moves_only_for_those_who_want_motion(browser, server, motion,
                                                                   flowing):
    """The dashes of a gradient flowing along an edge move, unless the system asks for
    reduced motion; then they stand still and boxes change without a transition."""
    ctx = browser.new_context(viewport={"width": 1440, "height": 900}, reduced_motion=motion)
    try:
        pg = ctx.new_page()
        pg.goto(f"{server}/?lang=en")
        wait_player(pg)
        pg.click("#jump-backward")
        pg.keyboard.press("ArrowRight")
        pg.wait_for_selector("#graph .edge.is-flow path", state="attached")
        style = pg.evaluate("""() => {
            const path = document.querySelector('#graph .edge.is-flow path');
            const node = document.querySelector('#graph .node');
            return [getComputedStyle(path).animationName, getComputedStyle(node).transitionProperty]; }""")
        assert style[0] == flowing
        assert style[1] == ("none" if motion == "reduce" else "opacity")
    finally:
        ctx.close()
