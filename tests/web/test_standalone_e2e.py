"""The exported player (`gradstep export`, `%%gradstep`) in real Chromium, from file:// with
every request that is not the file itself (or a blob: module it makes) refused: it must play
the whole run, show grads and the v·J panel, and switch to Chinese, with no server at all."""
from __future__ import annotations

import json
import re
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
SEED = ROOT / "app" / "examples" / "04-vjp-loop.py"
LOCAL = ("file:", "blob:", "data:")

pytestmark = pytest.mark.browser


def open_offline(browser, html_path: Path):
    ctx = browser.new_context(viewport={"width": 1440, "height": 900})
    page = ctx.new_page()
    page.refused = []
    page.problems = []

    def route(r):
        if r.request.url.startswith(LOCAL):
            r.continue_()
        else:
            page.refused.append(r.request.url)
            r.abort()
    page.route("**/*", route)
    page.on("console", lambda m: page.problems.append(m.text) if m.type == "error" else None)
    page.on("pageerror", lambda e: page.problems.append(str(e)))
    page.goto(html_path.as_uri())
    page.wait_for_selector("[data-gs-player][data-runs='1']", timeout=15000)
    return ctx, page


def play_to_end(page) -> int:
    page.locator("#step-last").click()
    label = page.locator("#step-label")
    assert label.get_attribute("data-step") == label.get_attribute("data-steps")
    return int(label.get_attribute("data-steps"))


@pytest.fixture(scope="module")
def exported(tmp_path_factory) -> Path:
    out = tmp_path_factory.mktemp("export") / "seed.html"
    done = subprocess.run([sys.executable, "-m", "gradstep", "export", str(SEED), "-o", str(out)],
                          capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    return out


def test_export_is_one_file_that_plays_offline(browser, exported):
    text = exported.read_text(encoding="utf-8")
    assert not re.search(r"""<(script|link|img)\b[^>]*\b(src|href)=""", text)
    ctx, page = open_offline(browser, exported)
    try:
        assert play_to_end(page) > 20
        grads = page.locator("#grads").inner_text()
        assert "x.grad" in grads and "512" in grads
        vjp = page.locator("#vjp").inner_text()
        assert "0.5" in vjp and "1024" in vjp
        assert page.locator("#console").inner_text().rstrip().endswith("tensor([512., 512., 512.])")
        page.locator("#step-first").click()
        assert page.locator("#step-label").get_attribute("data-step") == "1"
        assert page.locator("#editor").evaluate("e => e.readOnly")
        assert page.locator("#run").is_hidden()
        assert page.refused == [] and page.problems == []
    finally:
        ctx.close()


def test_export_switches_to_chinese_offline(browser, exported):
    ctx, page = open_offline(browser, exported)
    try:
        page.select_option("#lang", "zh")
        assert page.locator("html").get_attribute("lang") == "zh-Hans"
        assert page.locator("#code-title").inner_text() == json.loads(
            (ROOT / "static" / "i18n" / "zh.json").read_text(encoding="utf-8"))["code"]
        play_to_end(page)
        assert any("\u4e00" <= ch <= "\u9fff" for ch in page.locator("#narration").inner_text())
        # the file carries the Chinese font (its program has Chinese in it): the text is drawn
        # with it, not as boxes, on a machine with no Chinese font of its own
        loaded = page.evaluate("""async () => { await document.fonts.load('16px "gradstep CJK"', '梯度');
            return document.fonts.check('16px "gradstep CJK"', '梯度'); }""")
        assert loaded is True
        assert page.refused == [] and page.problems == []
    finally:
        ctx.close()


def test_export_opens_in_chinese_when_asked(tmp_path, browser):
    out = tmp_path / "zh.html"
    done = subprocess.run([sys.executable, "-m", "gradstep", "export", str(SEED), "-o", str(out),
                           "--lang", "zh"], capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    ctx, page = open_offline(browser, out)
    try:
        assert page.locator("#lang").input_value() == "zh"
        assert page.locator("html").get_attribute("data-lang") == "zh"
    finally:
        ctx.close()


def test_export_menu_downloads_a_player_that_plays_offline(page, browser, tmp_path):
    from urllib.parse import quote

    program = ("import torch\nx = torch.tensor([2.0, 3.0], requires_grad=True)\n"
               "y = (x ** 2).sum()\ny.backward()\nprint(x.grad)\n")
    page.goto(page.base + "/?code=" + quote(program))
    page.wait_for_selector("[data-gs-player][data-runs='1']")
    page.click("#export")
    with page.expect_download() as info:
        page.click("#export-html")
    saved = tmp_path / "menu.html"
    saved.write_bytes(open(info.value.path(), "rb").read())
    ctx, offline = open_offline(browser, saved)
    try:
        play_to_end(offline)
        assert "tensor([4., 6.])" in offline.locator("#console").inner_text()
        assert offline.refused == [] and offline.problems == []
    finally:
        ctx.close()
