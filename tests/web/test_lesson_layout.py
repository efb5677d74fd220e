"""Nothing of a lesson's program or graph is cut: for every lesson, in English and Chinese at
1440x900 and 1280x720, the program needs no sideways scrolling, the whole graph is in its pane,
the pass badge is not shortened, and program and graph panes end inside the window."""
from __future__ import annotations

import pytest

from gradstep.app.services.lessons import load_lessons

pytestmark = pytest.mark.browser
LESSONS = load_lessons()
CASES = [(lang, size) for lang in ("en", "zh") for size in ((1440, 900), (1280, 720))]


def cut_parts(pg, height: int) -> list[str]:
    return pg.evaluate("""(height) => {
        const out = [];
        const editor = document.querySelector('.editor');
        if (editor.scrollWidth > editor.clientWidth + 1) out.push(`program: ${editor.scrollWidth} > ${editor.clientWidth}`);
        const host = document.querySelector('#graph').getBoundingClientRect();
        const g = document.querySelector('#graph svg .graph') || document.querySelector('#graph svg');
        const r = g.getBoundingClientRect();
        if (r.left < host.left - 1 || r.right > host.right + 1 || r.top < host.top - 1 || r.bottom > host.bottom + 1)
          out.push(`graph: ${JSON.stringify([r.left, r.top, r.right, r.bottom])} outside ${JSON.stringify([host.left, host.top, host.right, host.bottom])}`);
        const badge = document.querySelector('#pass-badge');
        if (!badge.hidden && badge.scrollWidth > badge.clientWidth + 1) out.push(`badge: ${badge.textContent}`);
        for (const sel of ['.pane-code', '.pane-graph']) {
          const b = document.querySelector(sel).getBoundingClientRect();
          if (b.bottom > height + 1 || b.right > window.innerWidth + 1) out.push(`${sel} ends outside the window`);
        }
        return out; }""", height)


@pytest.mark.parametrize("lesson", LESSONS, ids=[lesson.id for lesson in LESSONS])
def test_nothing_of_the_lesson_is_cut(page, lesson):
    for lang, (w, h) in CASES:
        page.set_viewport_size({"width": w, "height": h})
        page.goto(f"{page.base}/lessons/{lesson.id}?lang={lang}")
        page.wait_for_selector('[data-gs-player][data-runs="1"]', state="attached", timeout=60000)
        page.wait_for_timeout(200)
        assert cut_parts(page, h) == [], (lang, w, h)
        page.locator("#jump-backward").click()      # the pass badge appears
        page.wait_for_timeout(250)                  # a pane that resized is fitted again
        assert cut_parts(page, h) == [], (lang, w, h, "at the first backward pass")
