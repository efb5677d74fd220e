"""The player on a phone and in a narrow window: one column, nothing on top of anything else.

Learners open tutorial links on phones. The desktop layout fits the panes into the viewport's
height; stacked into one column that once squeezed the program pane to nothing, its lines
spilled over the graph and the graph's zoom buttons covered Run. These tests look at the
page the way a person would: is every pane inside the page's width, do panes overlap, and
is Run the thing under a finger pressed on it.
"""
from __future__ import annotations

from urllib.parse import quote

import pytest

pytestmark = pytest.mark.browser

PROGRAM = """import torch
x = torch.tensor([1.0, 2.0], requires_grad=True)
y = (x * x).sum()
y.backward()
print(x.grad)
"""

# the layout boxes that must not cover each other, in page order
PANES = ".pane-code, .pane-graph, .pane-side, .lesson-text"

GEOMETRY = """() => {
  const box = e => { const r = e.getBoundingClientRect();
    return {name: e.className, top: r.top + scrollY, bottom: r.bottom + scrollY,
            left: r.left, right: r.right}; };
  // a hidden element (the presenter's editor, the embed's legend) takes no room
  const shown = sel => [...document.querySelectorAll(sel)].filter(e => e.offsetParent !== null);
  const panes = shown(%r).map(box);
  // true, or what spills out of its pane
  const inside = (inner, outer) => shown(inner).map(e => {
    const r = e.getBoundingClientRect(), o = e.closest(outer).getBoundingClientRect();
    return (r.bottom <= o.bottom + 1 && r.top >= o.top - 1) || [e.className, r.bottom, o.bottom];
  });
  return {width: innerWidth, scrollWidth: document.documentElement.scrollWidth, panes,
          editorInside: inside('.editor', '.pane-code'),
          graphInside: inside('.pane-graph > *', '.pane-graph')};
}""" % PANES  # noqa: UP031 - an f-string would need every JS brace doubled

UNDER_RUN = """() => {
  const run = document.getElementById('run'); const r = run.getBoundingClientRect();
  const hit = document.elementFromPoint(r.left + r.width / 2, r.top + r.height / 2);
  return hit !== null && run.contains(hit);
}"""


def overlaps(a: dict, b: dict) -> bool:
    return (min(a["bottom"], b["bottom"]) - max(a["top"], b["top"]) > 1
            and min(a["right"], b["right"]) - max(a["left"], b["left"]) > 1)


def check_layout(pg):
    g = pg.evaluate(GEOMETRY)
    assert g["scrollWidth"] <= g["width"], f"the page is wider than the screen: {g}"
    panes = g["panes"]
    assert len(panes) >= 2
    for i, a in enumerate(panes):
        assert a["left"] >= 0 and a["right"] <= g["width"] + 1, a
        assert a["bottom"] - a["top"] > 80, f"{a['name']} is squeezed: {a}"
        for b in panes[i + 1:]:
            assert not overlaps(a, b), f"{a['name']} and {b['name']} overlap"
    spilled = [x for x in g["editorInside"] + g["graphInside"] if x is not True]
    assert spilled == [], f"out of their pane: {spilled}"


def open_narrow(context, server, width, height, path, ready="body.is-ready"):
    pg = context.new_page()
    pg.set_viewport_size({"width": width, "height": height})
    problems: list[str] = []
    pg.on("pageerror", lambda e: problems.append(str(e)))
    pg.goto(server + path)
    pg.wait_for_selector(ready, state="attached", timeout=30000)
    return pg, problems


def run_and_read(pg) -> str:
    before = int(pg.get_attribute("[data-gs-player]", "data-runs") or 0)
    pg.locator("#run").scroll_into_view_if_needed()
    assert pg.evaluate(UNDER_RUN), "something covers the Run button"
    pg.click("#run")  # a real click: Playwright refuses it if another element would get it
    pg.wait_for_selector(f'[data-gs-player][data-runs="{before + 1}"]', state="attached",
                         timeout=30000)
    pg.click("#step-last")
    return pg.inner_text("#console")


@pytest.mark.parametrize("width,height,query", [
    (390, 844, "lang=en"), (360, 740, "lang=zh"), (700, 900, "lang=en"),
    (390, 844, "presenter=1"),
    # iframes on course pages: short, and between the phone and the desktop layouts
    (640, 480, "embed=1"), (900, 500, "embed=1"), (1024, 600, "lang=en")])
def test_the_player_on_a_phone(context, server, width, height, query):
    pg, problems = open_narrow(context, server, width, height,
                               f"/?{query}&code=" + quote(PROGRAM))
    check_layout(pg)
    if "presenter" in query:  # no editor, no Run: the page has run the program already
        pg.click("#step-last")
        assert "tensor([2., 4.])" in pg.inner_text("#console")
    else:
        assert "tensor([2., 4.])" in run_and_read(pg)
    check_layout(pg)  # a run fills the panes; they still keep to themselves
    assert problems == []
    pg.close()


@pytest.mark.parametrize("width,height", [(390, 844), (800, 1000)])
def test_a_lesson_on_a_narrow_screen(context, server, width, height):
    # a lesson runs its program as it opens
    pg, problems = open_narrow(context, server, width, height, "/lessons/retain-graph",
                               ready='[data-gs-player][data-runs="1"]')
    check_layout(pg)
    # the lesson's text is read by scrolling the page, not a box inside it
    text = pg.evaluate("""() => { const t = document.querySelector('.lesson-text');
        return [t.scrollHeight, t.clientHeight]; }""")
    assert text[0] <= text[1] + 1, text
    assert problems == []
    pg.close()
