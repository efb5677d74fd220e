"""The chain rule on the picture, in real Chromium (live server).

Every program of tests/fixtures/chain_programs/ (x used twice, a product chain, a tanh MLP,
broadcast add, sum and mean, matmul, backward with v, a dead ReLU, h used twice, and four
in-place programs: the failing one, its clone() fix, a bump on a leaf's operand, two bumps)
is run; at each node's backward step the inspector's chain card shows, for every element the
learner picks, `local × upstream = sent` with the trace's own numbers, the picture writes the
formula on the edge, paths that meet show their sum, and an in-place op's version bump is on
its box, where the error's card points. In English and Chinese, by keyboard, at 1440x900 and
1280x720, in presenter mode, in the exported file, the notebook player and the lesson page.
"""
from __future__ import annotations

import json
import re
import subprocess
import sys
from pathlib import Path

import pytest
from player_page import PLAYER, events, go, open_program

pytestmark = pytest.mark.browser

ROOT = Path(__file__).resolve().parents[2]
PROGRAMS = {p.stem: p.read_text(encoding="utf-8")
            for p in sorted((ROOT / "tests" / "fixtures" / "chain_programs").glob("*.py"))}
INPLACE_ERRORS = ("inplace_error", "inplace_leaf_error", "inplace_twice")
STRINGS = {lang: json.loads((ROOT / "static" / "i18n" / f"{lang}.json").read_text("utf-8"))
           for lang in ("en", "zh")}
NUMBER = re.compile(r"-?\d+(?:\.\d+)?(?:e-?\d+)?")
SHOTS = ROOT / "artifacts" / "screenshots"


def flat(data) -> list:
    if isinstance(data, list):
        return [x for d in data for x in flat(d)]
    return [data]


def close_to(shown: float, exact: float) -> bool:
    # the page writes 4 significant digits (format.js num)
    return abs(shown - exact) <= 5e-4 * max(abs(exact), 1e-3) + 1e-12


def numbers(text: str) -> list[float]:
    # element indices ([0, 1]) and node names ("(MulBackward0)") are not numbers of the formula
    return [float(x) for x in NUMBER.findall(re.sub(r"\[[\d, ]*\]|\([^)]*\)", "", text))]


def pill_text(pg, cls: str) -> str:
    """The words an overlay pill shows (its <title> holds the long form, if any)."""
    return pg.locator(f"#graph .{cls} text").first.text_content()


def check_pick(pg, ev: dict, k: int, j: int) -> None:
    """The formula for element j of input k: each local term and upstream element, and what
    was sent, all as the event holds them."""
    terms = ev["local"][k][j]
    up = flat(ev["grads_in"][0]["data"])
    sent = flat(ev["grads_out"][k]["data"])[j]
    text = pg.locator("#inspector .chain-formula .chain-formula-text code").inner_text()
    shown = numbers(text)
    if not terms:
        assert text.startswith("0 ="), text
        assert close_to(shown[-1], sent) and sent == 0
        return
    if len(terms) <= 4:     # longer sums are shortened with "…"
        expected = [x for i, d in terms for x in (d, up[i])] + [sent]
        assert len(shown) == len(expected), (text, expected)
        assert all(close_to(s, e) for s, e in zip(shown, expected)), (text, expected)
    assert close_to(shown[-1], sent), (text, sent)
    rows = pg.locator("#inspector .chain-terms tbody tr")
    assert rows.count() == len(terms)


def local_steps(evs: list) -> list:
    return [e for e in evs if e["kind"] == "node_apply" and e.get("local")]


@pytest.mark.parametrize("name", sorted(PROGRAMS))
def test_every_picked_element_shows_local_times_upstream(page, name):
    open_program(page, PROGRAMS[name])
    steps = local_steps(events(page))
    assert steps, name
    pills = 0
    for ev in steps:
        go(page, ev["seq"])
        card = page.locator("#inspector")
        assert STRINGS["en"]["chain.title"] in card.locator(".inspect-title").inner_text()
        assert ev["name"] in card.locator(".inspect-title").inner_text()
        # the upstream gradient's elements are the event's grads_in
        ups = [float(x) for x in page.evaluate("""() => [...document.querySelectorAll(
            '#inspector [data-pick^="in:"]')].map((b) => b.lastChild.textContent)""")]
        assert all(close_to(s, e) for s, e in zip(ups, flat(ev["grads_in"][0]["data"])))
        for k, local in enumerate(ev["local"]):
            if local is None or ev["grads_out"][k] is None or ev["to"][k] is None:
                continue
            for j in sorted({0, len(local) - 1}):
                card.locator(f'[data-pick="out{k}:{j}"]').click()
                assert card.locator(f'[data-pick="out{k}:{j}"]').get_attribute(
                    "aria-pressed") == "true"
                check_pick(page, ev, k, j)
                chain = page.locator("#graph .gs-pill-chain")
                if chain.count():
                    pills += 1
                    pill = pill_text(page, "gs-pill-chain")
                    assert "=" in pill and close_to(numbers(pill)[-1],
                                                   flat(ev["grads_out"][k]["data"])[j])
    assert pills >= 1, "no formula was written on an edge"


def test_the_formula_sits_on_the_edge_of_the_product_chain(page):
    open_program(page, PROGRAMS["product_chain"])
    evs = events(page)
    first_mul = [e for e in local_steps(evs) if e["name"] == "MulBackward0"][0]
    go(page, first_mul["seq"])
    assert page.locator("#graph .gs-pill-chain").count() == 1
    formula = page.locator("#inspector .chain-formula .chain-formula-text code").inner_text()
    assert pill_text(page, "gs-pill-chain").endswith(formula)


def test_an_upstream_pick_lists_where_the_element_goes(page):
    open_program(page, PROGRAMS["broadcast_add"])
    add = next(e for e in local_steps(events(page)) if e["name"] == "AddBackward0")
    go(page, add["seq"])
    page.locator('#inspector [data-pick="in:4"]').click()
    text = page.locator("#inspector .chain-reaches").inner_text()
    assert "x[1, 1]" in text and "b[1]" in text
    # b's element 1 is the sum over the broadcast rows: two terms, 1 × up[1] + 1 × up[4]
    page.locator('#inspector [data-pick="out1:1"]').click()
    check_pick(page, add, 1, 1)
    assert page.locator("#inspector .chain-terms tbody tr").count() == 2


def test_matmul_sums_a_row_times_a_column(page):
    open_program(page, PROGRAMS["matmul"])
    mm = next(e for e in local_steps(events(page)) if e["name"] == "MmBackward0")
    go(page, mm["seq"])
    page.locator('#inspector [data-pick="out1:2"]').click()
    check_pick(page, mm, 1, 2)
    assert page.locator("#inspector .chain-formula .chain-formula-text code").inner_text() == \
        "2 × 1 + 4 × 1 = 6"


def test_a_dead_relu_unit_gets_nothing(page):
    open_program(page, PROGRAMS["relu_dead"])
    relu = next(e for e in local_steps(events(page)) if e["name"] == "ReluBackward0")
    go(page, relu["seq"])
    page.locator('#inspector [data-pick="out0:0"]').click()
    check_pick(page, relu, 0, 0)
    assert "0" in page.locator("#inspector .chain-formula .note").inner_text()


def test_where_paths_meet_the_contributions_add_up(page):
    open_program(page, PROGRAMS["x_twice"])
    evs = events(page)
    acc = next(e for e in evs if e["kind"] == "accumulate")
    go(page, acc["seq"])
    meet = page.locator("#inspector .chain-meet")
    assert meet.count() == 1
    shown = numbers(meet.locator("code").inner_text())
    assert close_to(shown[-1], flat(acc["added"]["data"])[0])
    assert len(shown) == 4           # three paths reach x: Add's 1 and Mul's two edges
    assert close_to(sum(shown[:-1]), shown[-1])
    sentence = page.locator("#narration").inner_text()
    assert "3 paths meet" in sentence
    # h used twice by h * h: the two edges meet at h's node before it runs
    open_program(page, PROGRAMS["shared_twice_paths"])
    evs = events(page)
    sin = next(e for e in local_steps(evs) if e["name"] == "SinBackward0")
    go(page, sin["seq"])
    assert page.locator("#inspector .chain-meet").count() == 1


@pytest.mark.parametrize("name", INPLACE_ERRORS)
def test_the_inplace_error_points_at_the_bump(page, name):
    open_program(page, PROGRAMS[name])
    evs = events(page)
    bumps = [e for e in evs if e["kind"] == "inplace"]
    err = next(e for e in evs if e["kind"] == "error")
    assert "modified by an inplace operation" in err["message"]
    assert err["modified"]["by"] is not None
    for b in bumps:
        go(page, b["seq"])
        pill = page.locator("#graph .gs-pill-version")
        assert pill.count() == 1
        assert pill_text(page, "gs-pill-version") == f"v{b['version'] - 1} → v{b['version']}"
        assert f"v{b['version'] - 1} → v{b['version']}" in page.locator("#narration").inner_text()
        rows = page.locator("#graph .gs-row-data").all_text_contents()
        assert any(r.strip().startswith(f"v{b['version']} data") for r in rows), rows
    go(page, err["seq"])
    card = page.locator("#inspector")
    title = card.locator(".inspect-title").inner_text()
    m = err["modified"]
    assert f"v{m['expected']} → v{m['version']}" in title
    culprit = next(b for b in bumps if b["tensor"] == m["by"]["tensor"]
                   and b["version"] == m["by"]["version"])
    assert f"line {culprit['line']}" in card.inner_text()
    assert f"line {culprit['line']}" in page.locator("#narration").inner_text()
    # the button goes to the bump's step, by keyboard
    card.locator(".chain-go").focus()
    page.keyboard.press("Enter")
    assert page.evaluate(f"() => {PLAYER}.player.model.index") == culprit["seq"]


def test_the_clone_fix_has_no_error_and_its_own_version(page):
    open_program(page, PROGRAMS["inplace_clone"])
    evs = events(page)
    assert not [e for e in evs if e["kind"] == "error"]
    bump = next(e for e in evs if e["kind"] == "inplace")
    go(page, bump["seq"])
    assert pill_text(page, "gs-pill-version") == "v0 → v1"
    assert "v0 → v1" in page.locator("#inspector").inner_text()


def test_elements_are_picked_with_the_keyboard(page):
    open_program(page, PROGRAMS["tanh_mlp"])
    tanh = next(e for e in local_steps(events(page)) if e["name"] == "TanhBackward0")
    go(page, tanh["seq"])
    first = page.locator('#inspector [data-pick="out0:0"]')
    first.focus()
    page.keyboard.press("Enter")
    check_pick(page, tanh, 0, 0)
    page.keyboard.press("Tab")
    page.keyboard.press("Enter")
    check_pick(page, tanh, 0, 1)
    # the picked button keeps the focus while the card is drawn again
    assert page.evaluate("() => document.activeElement.dataset.pick") == "out0:1"
    # arrow keys still step: the next step's card follows
    page.locator("#graph").focus()
    page.keyboard.press("ArrowRight")
    assert page.evaluate(f"() => {PLAYER}.player.model.index") == tanh["seq"] + 1


@pytest.mark.parametrize("lang,size", [("en", (1440, 900)), ("zh", (1440, 900)),
                                       ("en", (1280, 720)), ("zh", (1280, 720))])
def test_the_card_reads_in_both_languages_and_sizes(page, lang, size):
    page.set_viewport_size({"width": size[0], "height": size[1]})
    open_program(page, PROGRAMS["x_twice"], lang)
    mul = next(e for e in local_steps(events(page)) if e["name"] == "MulBackward0")
    go(page, mul["seq"])
    page.locator('#inspector [data-pick="out1:2"]').click()
    card = page.locator("#inspector")
    s = STRINGS[lang]
    assert s["chain.title"] in card.inner_text()
    assert card.locator(".chain-formula .chain-formula-text code").inner_text() == "3 × 1 = 3"
    box = card.bounding_box()
    assert box["x"] + box["width"] <= size[0] + 1
    overflow = page.evaluate("""() => { const c = document.querySelector('#inspector');
        const r = c.getBoundingClientRect();
        return [...c.querySelectorAll('.chain-el, .chain-formula, .chain-terms')]
          .some((e) => e.getBoundingClientRect().right > r.right + 1); }""")
    assert not overflow
    SHOTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(SHOTS / f"chain-rule-{lang}-{size[0]}x{size[1]}.png"))


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_presenter_mode_shows_the_formula_large(page, lang):
    page.set_viewport_size({"width": 1280, "height": 720})
    open_program(page, PROGRAMS["tanh_mlp"], lang)
    page.locator("#graph").focus()
    page.keyboard.press("p")
    page.wait_for_timeout(300)
    tanh = next(e for e in local_steps(events(page)) if e["name"] == "TanhBackward0")
    go(page, tanh["seq"])
    sizes = page.evaluate("""() => ['.chain-el', '.chain-formula-text', '.chain-terms']
        .map((s) => parseFloat(getComputedStyle(document.querySelector('#inspector ' + s)).fontSize))""")
    assert min(sizes) >= 16, sizes
    formula = page.locator("#inspector .chain-formula")
    assert formula.is_visible()
    box = page.locator("#inspector").bounding_box()
    assert box["x"] + box["width"] <= 1280 + 1
    SHOTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(SHOTS / f"chain-rule-presenter-{lang}-1280x720.png"))


def test_the_inplace_error_reads_in_chinese(page):
    open_program(page, PROGRAMS["inplace_error"], "zh")
    err = next(e for e in events(page) if e["kind"] == "error")
    go(page, err["seq"])
    text = page.locator("#inspector").inner_text()
    assert STRINGS["zh"]["chain.bump_title"] in text and "第 4 行" in text
    assert "v0" in page.locator("#narration").inner_text()
    SHOTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(SHOTS / "chain-rule-inplace-zh-1440x900.png"))


def _offline(browser, document_path: Path):
    ctx = browser.new_context(viewport={"width": 1440, "height": 900})
    page = ctx.new_page()
    refused: list = []
    page.route("**/*", lambda r: r.continue_() if r.request.url.startswith(
        ("file:", "blob:", "data:")) else (refused.append(r.request.url), r.abort()))
    page.goto(document_path.as_uri())
    page.wait_for_selector("[data-gs-player][data-runs='1']", timeout=15000)
    return ctx, page, refused


def test_the_exported_player_shows_the_chain_rule_offline(browser, tmp_path):
    program = ROOT / "tests" / "fixtures" / "chain_programs" / "inplace_error.py"
    out = tmp_path / "chain.html"
    done = subprocess.run([sys.executable, "-m", "gradstep", "export", str(program), "-o",
                           str(out)], capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    ctx, page, refused = _offline(browser, out)
    try:
        evs = events(page)
        mul = next(e for e in local_steps(evs) if e["name"] == "MulBackward0")
        go(page, mul["seq"])
        page.locator('#inspector [data-pick="out0:1"]').click()
        check_pick(page, mul, 0, 1)
        err = next(e for e in evs if e["kind"] == "error")
        go(page, err["seq"])
        page.locator("#inspector .chain-go").click()
        assert page.evaluate(f"() => {PLAYER}.player.model.index") == \
            next(e for e in evs if e["kind"] == "inplace")["seq"]
        assert refused == []
    finally:
        ctx.close()


def test_the_notebook_player_shows_the_chain_rule(browser, tmp_path):
    import gradstep
    player = gradstep.show(PROGRAMS["x_twice"], lang="zh")
    path = tmp_path / "cell.html"
    path.write_text(player.document, encoding="utf-8")
    ctx, page, refused = _offline(browser, path)
    try:
        mul = next(e for e in local_steps(events(page)) if e["name"] == "MulBackward0")
        go(page, mul["seq"])
        assert STRINGS["zh"]["chain.title"] in page.locator("#inspector").inner_text()
        page.locator('#inspector [data-pick="out0:0"]').click()
        check_pick(page, mul, 0, 0)
        assert refused == []
    finally:
        ctx.close()


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_the_lesson_walks_the_edges(page, lang):
    page.goto(f"{page.base}/lessons/chain-rule-edges?lang={lang}")
    page.wait_for_selector('[data-gs-player][data-runs="1"]', state="attached", timeout=30000)
    evs = events(page)
    applies = [e for e in evs if e["kind"] == "node_apply"]
    go(page, applies[2]["seq"])          # y = h * h
    card = page.locator("#inspector")
    assert STRINGS[lang]["chain.title"] in card.inner_text()
    page.locator('#inspector [data-pick="out0:1"]').click()
    assert card.locator(".chain-formula .chain-formula-text code").inner_text() == "-2 × 1 = -2"
    go(page, applies[3]["seq"])          # h = x * w: the two paths met
    assert card.locator(".chain-meet code").inner_text().endswith("= 4")   # 2h[0], 2 + 2
    err = next(e for e in evs if e["kind"] == "error")
    assert err.get("caught") and err["modified"]["by"] is not None
    go(page, err["seq"])
    assert "v0 → v1" in card.locator(".inspect-title").inner_text()
    SHOTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(SHOTS / f"chain-rule-lesson-{lang}-1440x900.png"))
