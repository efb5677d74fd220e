"""Two runs side by side in real Chromium (live server): edit a program, run it again and
compare, or open a link that holds both programs. The comparison marks the changed lines, the
boxes whose values or gradients differ and the loss points that differ, and plays both runs
step for step; it is reachable from the keyboard, speaks English and Chinese, fits presenter
mode at 1280x720, survives a permalink and is inside the exported HTML file.
"""
from __future__ import annotations

import base64
import json
import re
import time
import zlib
from pathlib import Path
from urllib.parse import quote

import pytest

from compare_pairs import CUBE, OPTIM_LOOP, PAIRS, Pair

pytestmark = pytest.mark.browser

ROOT = Path(__file__).resolve().parents[2]
SHOTS = ROOT / "artifacts" / "screenshots"
STRINGS = {lang: json.loads((ROOT / "static" / "i18n" / f"{lang}.json").read_text("utf-8"))
           for lang in ("en", "zh")}


def token(code: str) -> str:
    """The permalink's compressed form (static/js/permalink.js): raw deflate, base64url."""
    packer = zlib.compressobj(9, zlib.DEFLATED, -15)
    packed = packer.compress(code.encode("utf-8")) + packer.flush()
    return base64.urlsafe_b64encode(packed).decode("ascii").rstrip("=")


def open_pair(pg, before: str, after: str, lang: str = "en", step: int = 0):
    """Open a link to both programs and wait for the comparison to be drawn."""
    hash_ = f"#z={token(after)}&vs={token(before)}" + (f"&step={step}" if step else "")
    pg.goto(f"{pg.base}/?lang={lang}{hash_}")
    pg.wait_for_selector("body.is-ready", timeout=60000)
    pg.wait_for_selector("#compare:not([hidden]) .compare-pane-b", timeout=60000)
    return pg


def until(pg, script: str, timeout: float = 20.0):
    """Wait until `script` (a function body's expression) is true in the page. The page's CSP
    forbids eval, which Playwright's wait_for_function needs, so this polls from here."""
    end = time.monotonic() + timeout
    while not pg.evaluate(f"() => Boolean({script})"):
        assert time.monotonic() < end, f"timed out waiting for {script}"
        pg.wait_for_timeout(100)


def data(pg) -> dict:
    return pg.evaluate("() => ({...document.querySelector('#compare').dataset})")


def panes(pg) -> dict:
    return pg.evaluate("""() => Object.fromEntries([...document.querySelectorAll('.compare-pane')].map(
        (p) => [p.dataset.run, {step: Number(p.dataset.step), holding: p.classList.contains('is-holding'),
          differs: Number(p.dataset.differs || 0),
          marked: p.querySelectorAll('.node.is-differs').length,
          only: p.querySelectorAll('.node.is-only-here').length,
          status: p.querySelector('.compare-status').textContent}]))""")


def changed_lines(pg, run: str) -> tuple[int, ...]:
    return tuple(pg.eval_on_selector_all(f".compare-pane-{run} .compare-code li.is-changed",
                                         "els => els.map(e => Number(e.dataset.line))"))


def walk(pg) -> list[dict]:
    """Every shared step, from the first: the row, both panes, and the line under the controls."""
    pg.keyboard.press("Home")
    rows = int(data(pg)["rows"])
    seen = []
    for _ in range(rows):
        seen.append({"row": int(data(pg)["row"]), **panes(pg), "here": pg.inner_text("#compare-here")})
        pg.keyboard.press("ArrowRight")
    return seen


@pytest.mark.parametrize("pair", PAIRS, ids=[p.name for p in PAIRS])
def test_a_pair_of_programs_side_by_side(page, pair: Pair):
    open_pair(page, pair.a, pair.b)
    assert page.input_value("#editor") == pair.b      # the later program is the one to edit
    assert changed_lines(page, "a") == pair.lines_a
    assert changed_lines(page, "b") == pair.lines_b
    seen = walk(page)
    assert [s["row"] for s in seen] == list(range(len(seen)))
    # each pane's own step never goes back, and ends on its run's last step
    for run in "ab":
        steps = [s[run]["step"] for s in seen]
        assert steps == sorted(steps), run
    last = seen[-1]
    assert last["a"]["status"] == (pair.error_a or "")
    assert last["b"]["status"] == (pair.error_b or "")
    holds = {run for run in "ab" if any(s[run]["holding"] for s in seen)}
    # a step only one run has: the other run's pane holds still while it plays
    expected_holds = {"a": {"b"}, "b": {"a"}, "both": {"a", "b"}, None: set()}[pair.only]
    assert holds == expected_holds
    summary = data(page)
    if pair.same:
        assert summary["differing"] == "0"
        assert all(s["a"]["marked"] == 0 and s["b"]["marked"] == 0 for s in seen)
        assert "Same numbers" in last["here"]
    else:
        assert int(summary["differing"]) > 0
        # the boxes outlined in a pane are the ones the line under the controls names
        marked = [s for s in seen if s["b"]["marked"]]
        if int(summary["values"]) or int(summary["grads"]):
            assert marked, "no step outlines a differing box"
            assert all("Differs at this step" in s["here"] for s in marked)
    if pair.loss is not None:
        differing, total = pair.loss
        assert summary["loss"] == str(differing)
        plot = page.locator("#compare-loss svg")
        assert plot.locator(".dot-b").count() == total
        assert plot.locator(".dot-b.is-differs").count() == differing


def test_edit_run_again_and_compare_from_the_keyboard(page):
    page.goto(f"{page.base}/?code=" + quote(OPTIM_LOOP))
    page.wait_for_selector('[data-gs-player][data-runs="1"]', state="attached", timeout=60000)
    # one run only: Compare says what to do instead of opening an empty view
    page.click("#compare-open")
    assert page.locator("#compare").is_hidden()
    assert "run it again" in page.inner_text("#toast")
    page.fill("#editor", OPTIM_LOOP.replace("lr=0.1", "lr=0.3"))
    page.keyboard.press("Control+Enter")
    page.wait_for_selector('[data-gs-player][data-runs="2"]', state="attached", timeout=60000)
    page.focus("#zoom-fit")                   # out of the editor: C is a key, not a letter
    page.keyboard.press("c")
    page.wait_for_selector("#compare:not([hidden])")
    assert page.locator("[data-gs-player]").is_hidden()
    assert page.get_attribute("#compare-open", "aria-pressed") == "true"
    assert changed_lines(page, "a") == (4,) and changed_lines(page, "b") == (4,)
    assert "lr=0.1" in page.inner_text(".compare-pane-a .compare-code li.is-changed")
    assert "lr=0.3" in page.inner_text(".compare-pane-b .compare-code li.is-changed")
    # D goes to the first step whose numbers differ: the first optimizer step
    page.keyboard.press("d")
    row = int(data(page)["row"])
    assert row > 0
    here = panes(page)
    assert here["a"]["step"] == here["b"]["step"]            # same program shape: same steps
    page.keyboard.press("d")
    assert int(data(page)["row"]) > row
    # the controls are buttons in the tab order, with names
    page.focus("#compare-next")
    page.keyboard.press("Enter")
    for sel in ("#compare-first", "#compare-prev", "#compare-play", "#compare-next", "#compare-last"):
        assert page.get_attribute(sel, "aria-label")
    # Escape goes back to the one run, which is the later one
    page.focus("#compare-slider")
    page.keyboard.press("Escape")
    assert page.locator("#compare").is_hidden()
    assert page.locator("[data-gs-player]").is_visible()
    assert "lr=0.3" in page.input_value("#editor")


def test_both_runs_play_step_for_step(page):
    open_pair(page, CUBE, CUBE.replace("z = y.sum()", "y = y.exp()\nz = y.sum()"))
    page.click("#compare-play")
    until(page, "Number(document.querySelector('#compare').dataset.row) >= 4")
    page.click("#compare-play")
    at = panes(page)
    assert at["a"]["step"] >= 3 and at["b"]["step"] >= 3
    row = int(data(page)["row"])
    page.wait_for_timeout(1500)                             # paused: the row stays
    assert int(data(page)["row"]) == row


def test_the_link_holds_both_programs_and_old_links_still_open_one(page, context):
    before = OPTIM_LOOP
    after = OPTIM_LOOP.replace("SGD([w], lr=0.1)", "Adam([w], lr=0.1)")
    open_pair(page, before, after, step=12)
    assert data(page)["row"] == "11"                       # the link's step is the shared step
    page.keyboard.press("ArrowRight")
    page.click("#permalink")
    until(page, "location.hash.includes('vs=') && location.hash.includes('step=13')")
    link = page.url
    other = context.new_page()
    other.goto(link)
    other.wait_for_selector("#compare:not([hidden]) .compare-pane-b", timeout=60000)
    assert other.input_value("#editor") == after
    assert "SGD" in other.inner_text(".compare-pane-a .compare-code")
    assert "Adam" in other.inner_text(".compare-pane-b .compare-code")
    assert other.evaluate("document.querySelector('#compare').dataset.row") == "12"
    other.close()
    # a link made before comparisons existed: one program, one run, no comparison
    old = context.new_page()
    old.goto(f"{page.base}/#z={token(after)}&step=3")
    old.wait_for_selector('[data-gs-player][data-runs="1"]', state="attached", timeout=60000)
    assert old.locator("#compare").is_hidden()
    assert old.get_attribute("#step-label", "data-step") == "3"
    old.close()


def test_chinese_and_a_language_switch(page):
    open_pair(page, CUBE, CUBE.replace("x * 3", "x * 4"), lang="zh")
    assert "两次运行并排" in page.inner_text("#compare-title")
    assert "之前" in page.inner_text(".compare-pane-a .compare-tag")
    page.keyboard.press("d")
    assert "这一步不同的是" in page.inner_text("#compare-here")
    page.select_option("#lang", "en")
    until(page, "document.querySelector('#compare-title').textContent.includes('side by side')")
    assert "Differs at this step" in page.inner_text("#compare-here")
    assert page.get_attribute("#compare-first", "aria-label") == STRINGS["en"]["step_first"]


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_presenter_mode_at_1280x720(browser, server, lang):
    ctx = browser.new_context(viewport={"width": 1280, "height": 720})
    pg = ctx.new_page()
    pg.base = server
    problems: list[str] = []
    pg.on("pageerror", lambda e: problems.append(str(e)))
    open_pair(pg, OPTIM_LOOP, OPTIM_LOOP.replace("lr=0.1", "lr=0.4"), lang=lang)
    pg.keyboard.press("p")
    pg.keyboard.press("d")
    pg.wait_for_timeout(300)
    for sel in (".compare-pane-a", ".compare-pane-b", "#compare-controls", "#compare-here", "#compare-loss"):
        box = pg.locator(sel).bounding_box()
        assert box and box["x"] >= 0 and box["y"] >= 0, sel
        assert box["x"] + box["width"] <= 1280 + 1 and box["y"] + box["height"] <= 720 + 1, (sel, box)
    for sel in (".compare-pane-b .compare-narration", "#compare-here"):
        size = pg.eval_on_selector(sel, "e => parseFloat(getComputedStyle(e).fontSize)")
        assert size >= 16, (sel, size)
    # the graphs are drawn big enough to read, not shrunk to a stamp
    for run in "ab":
        box = pg.locator(f".compare-pane-{run} .compare-graph").bounding_box()
        assert box["height"] >= 250 and box["width"] >= 500, box
    SHOTS.mkdir(parents=True, exist_ok=True)
    pg.screenshot(path=str(SHOTS / f"compare-presenter-{lang}-1280x720.png"))
    ctx.close()
    assert problems == []


def test_export_of_a_comparison_holds_both_runs(page, browser, tmp_path):
    open_pair(page, CUBE, CUBE.replace("x * 3", "x * 4"))
    page.click("#export")
    with page.expect_download() as got:
        page.click("#export-html")
    path = tmp_path / "compare.html"
    got.value.save_as(path)
    text = path.read_text("utf-8")
    assert 'id="gs-answer-before"' in text
    ctx = browser.new_context(viewport={"width": 1440, "height": 900})
    ctx.route(re.compile(r"^https?://"), lambda r: r.abort())      # offline: nothing to fetch
    off = ctx.new_page()
    off.goto(path.as_uri())
    off.wait_for_selector("#compare:not([hidden]) .compare-pane-b .node", timeout=30000)
    assert "x * 3" in off.inner_text(".compare-pane-a .compare-code li.is-changed")
    assert "x * 4" in off.inner_text(".compare-pane-b .compare-code li.is-changed")
    off.keyboard.press("End")
    assert int(off.evaluate("document.querySelector('#compare').dataset.differing")) > 0
    assert off.locator(".compare-pane-b .node.is-differs").count() > 0
    off.click("#compare-close")
    assert off.locator("[data-gs-player]").is_visible()
    assert off.input_value("#editor") == CUBE.replace("x * 3", "x * 4")
    ctx.close()


def test_export_of_one_run_has_no_comparison(page):
    body = page.request.post(f"{page.base}/api/export", data={"code": CUBE, "lang": "en"})
    assert body.ok
    assert 'id="gs-answer-before"' not in body.text()
    bad = page.request.post(f"{page.base}/api/export", data={"code": CUBE, "before": 3})
    assert bad.status == 422


AXE_FILE = ROOT / "tests" / "web" / "vendor" / "axe_core" / "axe-4.14.1.min.js"


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_no_serious_accessibility_violation(page, lang):
    open_pair(page, OPTIM_LOOP, OPTIM_LOOP.replace("SGD([w], lr=0.1)", "Adam([w], lr=0.1)"), lang=lang)
    # the page's CSP allows scripts from itself only: axe is served under its address
    page.route("**/__tests__/axe.min.js", lambda route: route.fulfill(
        path=AXE_FILE, content_type="application/javascript"))
    page.add_script_tag(url="/__tests__/axe.min.js")
    page.keyboard.press("d")
    for presenter in (False, True):
        if presenter:
            page.keyboard.press("p")
        found = page.evaluate("""async () => (await axe.run(document, {resultTypes: ['violations']}))
            .violations.filter((v) => v.impact === 'serious' || v.impact === 'critical')
            .map((v) => v.id + ': ' + v.nodes.slice(0, 3).map((n) => n.target.join(' ')).join(', '))""")
        assert found == [], (presenter, found)


def test_values_and_gradients_are_told_apart_and_swap_exchanges_the_sides(page):
    open_pair(page, CUBE, CUBE.replace("x * 3", "x * 4"))
    page.keyboard.press("End")
    here = page.inner_text("#compare-here")
    # x's value is the same in both runs, its gradient is not; y's value differs
    assert "x.grad" in here and re.search(r"\by\b", here)
    assert not re.search(r"\bx\b(?!\.grad)", here)
    pane = page.locator(".compare-pane-b")
    grads = pane.locator(".node.is-grad-differs")
    assert grads.count() >= 1
    assert grads.first.locator(".gs-row-grad").count() == 1
    assert pane.locator(".node.is-value-differs").count() >= 1
    # the panes' pictures zoom from the keyboard, as the player's does
    svg = ".compare-pane-b .compare-graph svg"
    before = page.eval_on_selector(svg, "s => s.getBoundingClientRect().width")
    page.focus(".compare-pane-b .compare-graph")
    page.keyboard.press("+")
    assert page.eval_on_selector(svg, "s => s.getBoundingClientRect().width") > before * 1.2
    page.keyboard.press("0")
    assert abs(page.eval_on_selector(svg, "s => s.getBoundingClientRect().width") - before) < 1
    page.click("#compare-swap")
    assert "x * 4" in page.inner_text(".compare-pane-a .compare-code li.is-changed")
    assert "x * 3" in page.inner_text(".compare-pane-b .compare-code li.is-changed")
    assert data(page)["row"] == str(int(data(page)["rows"]) - 1)      # the same shared step
