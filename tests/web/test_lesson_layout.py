"""Nothing of a lesson's program or graph is cut, and its graph reads: for every lesson, in
English and Chinese at 1440x900 and 1280x720, the program needs no sideways scrolling, the
graph's words are 11 px or more with the working box in its pane, Fit shows the whole graph
in its pane, the pass badge is not shortened, and program and graph panes end inside the
window."""
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
        const svg = document.querySelector('#graph svg');
        const scale = svg.getBoundingClientRect().width / svg.viewBox.baseVal.width;
        const sizes = [...svg.querySelectorAll('text')].filter((t) => t.textContent.trim()
          && t.getClientRects().length).map((t) => parseFloat(getComputedStyle(t).fontSize) * scale);
        // labels are 11 points, value rows 10: at the readable size they are that many px
        if (Math.min(...sizes) < 9.9) out.push(`graph text at ${Math.min(...sizes).toFixed(1)} px`);
        const work = document.querySelector('#graph .node.is-active');
        const r = work && work.getBoundingClientRect();
        if (r && (r.left < host.left - 1 || r.right > host.right + 1 || r.top < host.top - 1 || r.bottom > host.bottom + 1))
          out.push('the working box is out of the pane');
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
        page.locator("#zoom-fit").click()           # the whole graph, however small
        assert whole_in_pane(page), (lang, w, h, "after Fit")


def whole_in_pane(pg) -> bool:
    return pg.evaluate("""() => {
        const host = document.querySelector('#graph').getBoundingClientRect();
        const g = document.querySelector('#graph svg .graph') || document.querySelector('#graph svg');
        const r = g.getBoundingClientRect();
        return r.left >= host.left - 1 && r.right <= host.right + 1 && r.top >= host.top - 1
          && r.bottom <= host.bottom + 1; }""")
