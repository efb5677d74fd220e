"""An optimizer's step, one parameter at a time, in real Chromium (live server).

Every program of tests/fixtures/optim_programs/ (SGD with and without momentum, Nesterov and
weight decay, Adam, AdamW, amsgrad, RMSprop, Adagrad, Adamax, and StepLR, CosineAnnealingLR,
LambdaLR and OneCycleLR beside the steps) is run, and at each `optimizer_update` step the
inspector shows the optimizer's rule with numbers equal to the trace's, the sentence names the
parameter, and the lr; in English and Chinese, reached by keyboard, readable in presenter mode.
"""
from __future__ import annotations

import json
import re
import subprocess
import sys
from pathlib import Path

import pytest
from player_page import events, open_program

pytestmark = pytest.mark.browser

ROOT = Path(__file__).resolve().parents[2]
PROGRAMS = {p.stem: p.read_text(encoding="utf-8")
            for p in sorted((ROOT / "tests" / "fixtures" / "optim_programs").glob("*.py"))}
STRINGS = {lang: json.loads((ROOT / "static" / "i18n" / f"{lang}.json").read_text("utf-8"))
           for lang in ("en", "zh")}
NUMBER = re.compile(r"-?\d+(?:\.\d+)?(?:e-?\d+)?")

# The rule lines each optimizer must show (data-term of the inspector's rows).
EXPECTED_TERMS = {
    "SGD": {"grad", "after"},
    "Adam": {"grad", "step", "exp_avg", "exp_avg_sq", "m_hat", "v_hat", "step_size", "after"},
    "AdamW": {"grad", "decayed", "step", "exp_avg", "exp_avg_sq", "m_hat", "v_hat", "after"},
    "RMSprop": {"grad", "step", "square_avg", "avg", "after"},
    "Adagrad": {"grad", "step", "sum", "clr", "std", "after"},
    "Adamax": {"grad", "step", "exp_avg", "exp_inf", "after"},
}


def flat(data) -> list:
    if isinstance(data, list):
        return [x for d in data for x in flat(d)]
    return [data]


def trace_numbers(ev: dict, term: str) -> list:
    """The numbers the trace holds for one line of the rule."""
    if term in ("after", "grad"):
        return flat(ev[term]["data"])
    for group in ("state", "terms"):
        for item in ev[group]:
            if item["name"] == term:
                return [item["number"]] if "number" in item else flat(item["value"]["data"])
    raise AssertionError(f"{term} is not in the event")


def rule_rows(pg) -> list[dict]:
    return pg.evaluate("""() => Array.from(document.querySelectorAll('#inspector .optim-line'))
        .map((r) => ({ term: r.dataset.term, rule: r.querySelector('.optim-rule code').textContent,
                       given: (r.querySelector('.optim-given') || {}).textContent || '',
                       value: r.querySelector('.optim-value code').textContent }))""")


def close_to(shown: float, exact: float) -> bool:
    # the page writes 4 significant digits (format.js num)
    return abs(shown - exact) <= 5e-4 * max(abs(exact), 1e-3) + 1e-12


def check_update_step(pg, ev: dict, lang: str) -> None:
    rows = rule_rows(pg)
    terms = {r["term"] for r in rows}
    assert EXPECTED_TERMS[ev["optimizer"]] <= terms, (ev["optimizer"], terms)
    for r in rows:
        shown = [float(x) for x in NUMBER.findall(r["value"])]
        exact = trace_numbers(ev, r["term"])
        assert len(shown) == len(exact), (r, exact)
        assert all(close_to(s, e) for s, e in zip(shown, exact)), (r, exact)
        if r["term"] in ("m_hat", "v_hat"):     # Adam's bias correction, beside its division
            given = float(r["given"].rsplit("=", 1)[1])
            k = "1" if r["term"] == "m_hat" else "2"
            assert close_to(given, trace_numbers(ev, "bias_correction" + k)[0]), r
    sentence = pg.locator("#narration").inner_text()
    assert f"{ev['optimizer']}.step()" in sentence
    assert str(ev["index"] + 1) in sentence and str(ev["count"]) in sentence
    title = pg.locator("#inspector .inspect-title").inner_text()
    assert f"{ev['optimizer']}.step()" in title
    lr = pg.locator("#inspector .optim-lr").inner_text()
    assert lr.startswith("lr = ")
    if ev["scheduler"]:
        assert ev["scheduler"]["name"] in lr and ev["scheduler"]["name"] in sentence
    if lang == "zh":
        assert "第" in sentence and "参数" in sentence


@pytest.mark.parametrize("name", sorted(PROGRAMS))
def test_each_parameter_step_shows_the_rule_with_the_traces_numbers(page, name):
    open_program(page, PROGRAMS[name])
    evs = events(page)
    updates = [e for e in evs if e["kind"] == "optimizer_update"]
    assert len(updates) >= 2
    for ev in updates:
        page.evaluate("(i) => document.querySelector('[data-gs-player]').gsPlayer.player.go(i)",
                      ev["seq"])
        check_update_step(page, ev, "en")
        if ev["optimizer"] == "SGD":
            after = next(r for r in rule_rows(page) if r["term"] == "after")
            assert after["rule"] == "p ← p − lr·g"
        active = page.evaluate("() => document.querySelector('[data-gs-player]')"
                               ".gsPlayer.player.model.state.active")
        assert active == ev["tensor"]       # the graph follows the parameter


@pytest.mark.parametrize("name", ["sgd_momentum", "adam", "adamw", "sgd_steplr"])
def test_keyboard_o_walks_the_updates_in_chinese(page, name):
    open_program(page, PROGRAMS[name], "zh")
    updates = [e for e in events(page) if e["kind"] == "optimizer_update"]
    page.locator("#graph").focus()
    for ev in updates:
        page.keyboard.press("o")
        at = page.evaluate("() => document.querySelector('[data-gs-player]')"
                           ".gsPlayer.player.model.index")
        assert at == ev["seq"]
        check_update_step(page, ev, "zh")
    head = page.locator("#inspector .optim-rule-table th").first.inner_text()
    assert head == STRINGS["zh"]["optim.rule"]


def test_zero_grad_and_scheduler_steps_are_narrated(page):
    open_program(page, PROGRAMS["sgd_steplr"])
    evs = events(page)
    go = "(i) => document.querySelector('[data-gs-player]').gsPlayer.player.go(i)"
    zeros = [e for e in evs if e["kind"] == "zero_grad"]
    page.evaluate(go, zeros[0]["seq"])
    assert "nothing to reset" in page.locator("#narration").inner_text()
    page.evaluate(go, zeros[1]["seq"])
    text = page.locator("#narration").inner_text()
    assert "w" in text and "None" in text and "set_to_none=True" in text
    card = page.locator("#inspector").inner_text()
    assert "SGD.zero_grad(set_to_none=True)" in card and "w.grad → None" in card
    steps = [e for e in evs if e["kind"] == "lr_step"]
    page.evaluate(go, steps[1]["seq"])
    assert page.locator("#narration").inner_text() == (
        "StepLR.step(): the learning rate goes 0.1 → 0.05 (epoch 1).")
    open_program(page, PROGRAMS["linear_adam_zeros"])
    zeros = [e for e in events(page) if e["kind"] == "zero_grad"]
    page.evaluate(go, zeros[1]["seq"])
    text = page.locator("#narration").inner_text()
    assert "set_to_none=False" in text and "zeros" in text
    card = page.locator("#inspector").inner_text()
    assert "Adam.zero_grad(set_to_none=False)" in card and "weight.grad → zeros" in card
    page.evaluate(go, zeros[0]["seq"])
    assert "is None already" in page.locator("#inspector").inner_text()
    assert "weight" in text and "bias" in text


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_presenter_mode_shows_the_rule_at_1280x720(page, lang):
    page.set_viewport_size({"width": 1280, "height": 720})
    open_program(page, PROGRAMS["adam"], lang)
    page.locator("#graph").focus()
    page.keyboard.press("p")
    page.wait_for_timeout(300)
    page.keyboard.press("o")
    page.keyboard.press("o")          # the second parameter of the first step: b
    table = page.locator("#inspector .optim-rule-table")
    assert table.is_visible()
    size = page.evaluate("() => parseFloat(getComputedStyle("
                         "document.querySelector('#inspector .optim-rule-table')).fontSize)")
    assert size >= 16
    box = page.locator("#inspector").bounding_box()
    assert box["x"] + box["width"] <= 1280 + 1
    # each rule line fits the panel: nothing runs off to the right
    overflow = page.evaluate("""() => Array.from(document.querySelectorAll('#inspector .optim-line'))
        .some((r) => r.getBoundingClientRect().right > document.querySelector('#inspector')
          .getBoundingClientRect().right + 1)""")
    assert not overflow


def test_the_exported_player_shows_the_rule_offline(browser, tmp_path):
    """The standalone HTML export (`gradstep export`) carries the optimizer card too."""
    program = ROOT / "tests" / "fixtures" / "optim_programs" / "adam.py"
    out = tmp_path / "adam.html"
    done = subprocess.run([sys.executable, "-m", "gradstep", "export", str(program), "-o",
                           str(out)], capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    ctx = browser.new_context(viewport={"width": 1440, "height": 900})
    page = ctx.new_page()
    refused: list = []
    page.route("**/*", lambda r: r.continue_() if r.request.url.startswith(
        ("file:", "blob:", "data:")) else (refused.append(r.request.url), r.abort()))
    try:
        page.goto(out.as_uri())
        page.wait_for_selector("[data-gs-player][data-runs='1']", timeout=15000)
        page.locator("#graph").focus()
        page.keyboard.press("o")
        ev = next(e for e in events(page) if e["kind"] == "optimizer_update")
        check_update_step(page, ev, "en")
        assert refused == []
    finally:
        ctx.close()
