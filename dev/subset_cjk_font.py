"""Make the Chinese font the app ships (static/fonts/), a subset of Noto Sans CJK SC.

The page uses it only for Chinese characters the system has no font for (css/fonts.css).
The subset holds every CJK character of the interface, the lessons, the examples and the
templates, plus the 3755 most common Chinese characters (GB 2312 level 1), so a teacher's own
lesson in Chinese almost always renders too; CJK punctuation and full-width forms are in.

Run it again after adding Chinese text, with fontTools and brotli installed (neither is a
dependency of gradstep) and the Regular collection of Debian's fonts-noto-cjk package:

    python dev/subset_cjk_font.py NotoSansCJK-Regular.ttc

The font is under the SIL Open Font License 1.1 (static/fonts/OFL.txt).
"""
from __future__ import annotations

import argparse
import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
OUT = ROOT / "static" / "fonts" / "gradstep-cjk-sc.woff2"
SOURCES = ["static/i18n/*.json", "app/lessons/*", "app/examples/*", "templates/**/*.html",
           "static/js/**/*.js"]
CJK = re.compile(r"[\u2e80-\u2fff\u3000-\u303f\u3040-\u30ff\u3100-\u31ff\u3400-\u4dbf"
                 r"\u4e00-\u9fff\uf900-\ufaff\ufe30-\ufe4f\uff00-\uffef]")
SC_INDEX = 2          # Noto Sans CJK SC in NotoSansCJK-Regular.ttc


def gb2312_level1() -> set[str]:
    """The 3755 characters of GB 2312 level 1 (rows 16-55), the everyday ones."""
    chars = set()
    for row in range(0xB0, 0xD8):
        for cell in range(0xA1, 0xFF):
            try:
                chars.add(bytes([row, cell]).decode("gb2312"))
            except UnicodeDecodeError:
                pass
    return chars


def used_characters() -> set[str]:
    chars: set[str] = set()
    for pattern in SOURCES:
        for path in ROOT.glob(pattern):
            if path.is_file():
                chars.update(CJK.findall(path.read_text(encoding="utf-8", errors="ignore")))
    return chars


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("collection", help="NotoSansCJK-Regular.ttc")
    args = parser.parse_args()
    from fontTools import subset
    from fontTools.ttLib import TTFont

    chars = used_characters() | gb2312_level1()
    chars |= {chr(c) for c in range(0x3000, 0x3040)} | {chr(c) for c in range(0xFF01, 0xFF5F)}
    font = TTFont(args.collection, fontNumber=SC_INDEX)
    options = subset.Options()
    options.flavor = "woff2"
    options.layout_features = ["*"]
    options.name_IDs = ["*"]           # keep the copyright and licence records
    options.hinting = False
    subsetter = subset.Subsetter(options)
    subsetter.populate(text="".join(sorted(chars)))
    subsetter.subset(font)
    OUT.parent.mkdir(parents=True, exist_ok=True)
    font.flavor = "woff2"
    font.save(OUT)
    print(f"{OUT.relative_to(ROOT)}: {len(chars)} characters, {OUT.stat().st_size} bytes")


if __name__ == "__main__":
    main()
