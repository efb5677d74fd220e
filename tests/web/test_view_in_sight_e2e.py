"""The view keeps the work in sight (real Chromium, live server): Fit shows every picture whole
and says when its words are too small to read, offering the readable size; a chain too long
to draw is drawn windowed, its first and last stretches with the middle folded into one box
that says how many ops it stands for, and its steps still light the box they work in.
"""
from __future__ import annotations

import json
from pathlib import Path

import pytest
from player_page import open_program

pytestmark = pytest.mark.browser

ROOT = Path(__file__).resolve().parents[2]
STRINGS = {lang: json.loads((ROOT / "static" / "i18n" / f"{lang}.json").read_text("utf-8"))
           for lang in ("en", "zh")}
MODULE_LIST = (ROOT / "tests" / "fixtures" / "nn_programs" / "module_list_loop.py").read_text()
CHAIN = """import torch
x = torch.tensor([1.0, 2.0], requires_grad=True)
for i in range(5000):
    x = x * 1.0001
x.sum().backward()
"""

PICTURE = """() => {
    const host = document.querySelector('#graph').getBoundingClientRect();
    const svg = document.querySelector('#graph svg');
    const g = svg.querySelector('.graph') || svg;
    const r = g.getBoundingClientRect();
    const scale = svg.getBoundingClientRect().width / svg.viewBox.baseVal.width;
    const work = document.querySelector('#graph .node.is-active');
    const w = work && work.getBoundingClientRect();
    const inside = (b) => b.left >= host.left - 1 && b.right <= host.right + 1
      && b.top >= host.top - 1 && b.bottom <= host.bottom + 1;
    return { whole: inside(r), labelPx: 11 * scale, working: w ? inside(w) : null };
}"""


def open_big(pg, source: str, lang: str = "en"):
    """A big program's page: its answer may take a while on a loaded machine."""
    return open_program(pg, source, lang, timeout=90000)


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_fit_shows_the_whole_picture_and_offers_the_readable_size(page, lang):
    open_big(page, MODULE_LIST, lang)
    applies = page.evaluate("""() => document.querySelector('[data-gs-player]').gsPlayer
        .player.model.trace.events.filter((e) => e.kind === 'node_apply').map((e) => e.seq)""")
    page.evaluate(f"() => document.querySelector('[data-gs-player]').gsPlayer.player.go({applies[2]})")
    opened = page.evaluate(PICTURE)
    assert opened["labelPx"] >= 10.9 and opened["working"], opened   # it opens readable
    page.click("#zoom-fit")
    seen = page.evaluate(PICTURE)
    assert seen["whole"], seen
    note = page.locator("#graph-scale")
    if seen["labelPx"] < 10.9:      # too small to read whole: the pane says so, in numbers
        assert note.is_visible()
        px = f"{round(seen['labelPx'], 1):g}"
        assert STRINGS[lang]["graph_whole_small"].replace("{px}", px) in note.inner_text()
        # and it covers none of the picture
        clear = page.evaluate("""() => document.querySelector('#graph-scale').getBoundingClientRect()
            .top >= document.querySelector('#graph svg .graph').getBoundingClientRect().bottom - 1""")
        assert clear
        page.click("#zoom-readable")
        back = page.evaluate(PICTURE)
        assert back["labelPx"] >= 10.9 and back["working"], back
        assert note.count() == 0
    else:
        assert note.count() == 0
    # the key does what the button does, and zooming puts the note away
    page.focus("#graph")
    page.keyboard.press("0")
    assert page.evaluate(PICTURE)["whole"]
    if seen["labelPx"] < 10.9:
        assert note.count() == 1
        page.keyboard.press("+")
        assert note.count() == 0


def test_the_module_list_does_not_fit_readable_so_fit_says_so(page):
    # the program the picture had trouble with: wider than the pane at 11 px
    open_big(page, MODULE_LIST)
    page.click("#step-last")
    page.click("#zoom-fit")
    seen = page.evaluate(PICTURE)
    assert seen["whole"] and seen["labelPx"] < 10.9, seen
    assert page.locator("#graph-scale").is_visible()


@pytest.fixture(scope="module")
def chain_page(browser, server):
    ctx = browser.new_context(viewport={"width": 1440, "height": 900})
    pg = ctx.new_page()
    problems: list[str] = []
    pg.on("console", lambda m: problems.append(m.text) if m.type in ("error", "warning") else None)
    pg.on("pageerror", lambda e: problems.append(str(e)))
    pg.base = server
    yield pg
    assert problems == [], problems
    ctx.close()


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_a_5000_op_chain_is_drawn_windowed(chain_page, lang):
    pg = open_big(chain_page, CHAIN, lang)
    assert pg.locator("#graph .graph-empty").count() == 0
    fold = pg.locator("#graph svg g.node.gs-run")
    assert fold.count() == 1
    words = STRINGS[lang]["graph_run"].split("{n}")
    said = fold.locator("text").first.text_content()
    assert words[0].strip() in said and words[1].strip() in said, said
    n = int("".join(ch for ch in said if ch.isdigit()))
    boxes = pg.evaluate("""() => [...document.querySelectorAll('#graph svg g.node')].length""")
    assert boxes < 120                              # a screenful, not 10,000 boxes
    # the boxes drawn and the ops folded add up to the 5,000 multiplications
    drawn = pg.evaluate("""() => [...document.querySelectorAll('#graph svg g.node.gs-op')]
        .filter((g) => (g.querySelector('text') || {}).textContent === 'MulBackward0').length""")
    assert drawn + n == 5000, (drawn, n)
    # x, the leaf, is drawn, and so is the last x the backward pass starts from
    labels = pg.evaluate("""() => [...document.querySelectorAll('#graph svg g.node text')]
        .map((t) => t.textContent)""")
    assert "x" in labels and any(label.startswith("x₅₀₀₁") for label in labels), labels
    # stepping through: the first op, an op in the middle, the end of the backward pass each
    # have their box in the pane, lit
    for which in ("first-op", "middle", "accumulate"):
        seen = pg.evaluate("""(which) => {
            const c = document.querySelector('[data-gs-player]').gsPlayer;
            const ev = c.player.model.trace.events;
            const ops = ev.filter((e) => e.kind === 'op');
            const at = which === 'first-op' ? ops[0].seq
              : which === 'middle' ? ops[Math.floor(ops.length / 4)].seq
              : ev.find((e) => e.kind === 'accumulate').seq;
            c.player.go(at);
            const host = document.querySelector('#graph').getBoundingClientRect();
            const el = document.querySelector('#graph .node.is-active, #graph .node.is-new');
            if (!el) return null;
            const r = el.getBoundingClientRect();
            return { id: el.id, run: el.classList.contains('gs-run'),
              inside: r.left >= host.left - 1 && r.right <= host.right + 1
                && r.top >= host.top - 1 && r.bottom <= host.bottom + 1 };
        }""", which)
        assert seen and seen["inside"], (which, seen)
        if which == "middle":
            assert seen["run"], seen
    # switching the language says the fold's words in the other one
    other = "zh" if lang == "en" else "en"
    pg.select_option("#lang", other)
    want = STRINGS[other]["graph_run"].replace("{n}", "4,980")
    pg.wait_for_function("(want) => document.querySelector('#graph svg g.node.gs-run text')"
                         ".textContent === want", arg=want, timeout=10000)
