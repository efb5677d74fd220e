"""The Chinese font shipped with the app: Chinese pages ask for it before their first paint
and the browser loads it; English pages do not preload it; its licence is beside it."""
from __future__ import annotations

from pathlib import Path

import pytest

pytestmark = pytest.mark.browser
FONTS = Path(__file__).resolve().parents[2] / "static" / "fonts"


def font_status(pg) -> list[str]:
    return pg.evaluate("""() => [...document.fonts].filter((f) => f.family.includes('gradstep CJK'))
        .map((f) => f.status)""")


@pytest.mark.parametrize("path", ["/?lang=zh", "/lessons?lang=zh", "/lessons/accumulation?lang=zh"])
def test_chinese_pages_load_the_shipped_font(page, path):
    fetched = []
    page.on("response", lambda r: fetched.append((r.url, r.status, r.headers.get("content-type")))
            if r.url.endswith(".woff2") else None)
    page.goto(page.base + path)
    page.evaluate("() => document.fonts.ready.then(() => 1)")
    assert font_status(page) == ["loaded"]
    assert [(s, t) for _, s, t in fetched] == [(200, "font/woff2")]
    # the stacks name installed Chinese fonts first and the shipped one last
    family = page.evaluate("() => getComputedStyle(document.body).fontFamily")
    assert family.index("Microsoft YaHei") < family.index("gradstep CJK")


def test_english_page_does_not_preload_it(page):
    # it still gets the font on demand for the language menu's "简体中文"
    page.goto(page.base + "/?lang=en")
    page.wait_for_selector("body.is-ready", timeout=30000)
    assert page.locator('link[rel="preload"][as="font"]').count() == 0


def test_the_font_is_a_subset_with_its_licence():
    font = FONTS / "gradstep-cjk-sc.woff2"
    assert font.read_bytes()[:4] == b"wOF2"
    assert 100_000 < font.stat().st_size < 2_000_000
    assert "SIL OPEN FONT LICENSE Version 1.1" in (FONTS / "OFL.txt").read_text()
    assert "fonts-noto-cjk" in (FONTS / "README.md").read_text()
