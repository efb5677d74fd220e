"""Pictures left out for the answer's size (docs/api.md, `layout_budget`): the page says, in
the learner's language, which part of the run is not drawn and why, and still plays every
step. The server's answer is shrunk on its way to the page as the budget would shrink it."""
from __future__ import annotations

import json
from urllib.parse import quote

import pytest

pytestmark = pytest.mark.browser

GROWING = """import torch
x = torch.ones(3, requires_grad=True)
for i in range(5):
    y = x
    for j in range(i + 1):
        y = y * 2
    y.sum().backward()
print(x.grad)
"""
WORDS = {"en": ("This part of the run is not drawn", "The graph is not drawn"),
         "zh": ("这部分运行没有绘制", "计算图没有绘制")}


def _shrink(drop_all: bool):
    """A route handler: the real answer with pictures 3 to 5 (or all) left out."""
    def handle(route):
        answer = json.loads(route.fetch().text())
        layout = answer["layout"]
        budget = {"max_bytes": 40_000, "pictures": 1 + len(layout["views"]), "drawn": 2}
        if drop_all:
            answer["layout"], budget["drawn"] = None, 0
        else:
            for k in range(1, len(layout["views"])):
                layout["views"][k] = {"engine": "dot", "dropped": True, "nodes": {},
                                      "edges": [], "width": layout["width"],
                                      "height": layout["height"],
                                      "svg": '<svg xmlns="http://www.w3.org/2000/svg" '
                                             'viewBox="0 0 10 10"></svg>'}
        answer["layout_budget"] = budget
        answer["layout_note"] = "left out"
        route.fulfill(status=200, content_type="application/json", body=json.dumps(answer))
    return handle


def _open(page, lang: str, drop_all: bool) -> None:
    page.route("**/api/run", _shrink(drop_all))
    page.goto(f"{page.base}/?lang={lang}#code={quote(GROWING)}")
    page.wait_for_selector('[data-gs-player][data-runs="1"]', state="attached", timeout=60000)


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_a_left_out_picture_says_why_and_the_drawn_ones_still_show(page, lang):
    _open(page, lang, drop_all=False)
    assert page.locator("#iteration option").count() == 5
    page.select_option("#iteration", "3")
    note = page.locator("#graph .graph-empty")
    note.wait_for()
    text = note.inner_text()
    assert text.startswith(WORDS[lang][0]) and "0.04 MB" in text
    assert "2" in text and "5" in text
    page.select_option("#iteration", "1")
    page.wait_for_selector("#graph svg g.node")
    assert page.locator("#graph .graph-empty").count() == 0


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_no_room_for_any_picture_says_so_and_the_steps_play(page, lang):
    _open(page, lang, drop_all=True)
    text = page.locator("#graph .graph-empty").inner_text()
    assert text.startswith(WORDS[lang][1]) and "0.04 MB" in text
    page.keyboard.press("End")
    assert page.locator("#graph svg g.node").count() == 0
