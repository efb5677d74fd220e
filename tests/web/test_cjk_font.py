"""The Chinese font shipped with the app: on a machine without a Chinese font (this one) the
browser loads it for Chinese pages and draws their text with it; its licence is beside it."""
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
    # an installed Chinese font (local()) would be used instead; this machine has none
    assert [(s, t) for _, s, t in fetched] == [(200, "font/woff2")]
    # the CJK-only family leads the stack, so Chinese text is drawn with it, not with boxes
    family = page.evaluate("() => getComputedStyle(document.body).fontFamily")
    assert family.startswith('"gradstep CJK"')
    assert page.evaluate("() => document.fonts.check('16px \"gradstep CJK\"', '梯度')")


def test_the_font_is_a_subset_with_its_licence():
    font = FONTS / "gradstep-cjk-sc.woff2"
    assert font.read_bytes()[:4] == b"wOF2"
    assert 100_000 < font.stat().st_size < 2_000_000
    assert "SIL OPEN FONT LICENSE Version 1.1" in (FONTS / "OFL.txt").read_text()
    assert "fonts-noto-cjk" in (FONTS / "README.md").read_text()
