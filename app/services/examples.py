"""The built-in programs: `app/examples/NN-id.py`, each a PyTorch program under a small header.

    # title_en: Backward through a mean
    # title_zh: 对均值做反向传播
    # description: A scalar output, one backward() call ...

The header is stripped from the code a learner sees; the `NN-` prefix only orders the list.

Example:
    >>> parse_example("01-cube.py", "# title_en: Cube\\n# title_zh: 立方\\nimport torch\\n")["id"]
    'cube'
"""
from __future__ import annotations

import re
from functools import lru_cache
from pathlib import Path

HEADER = re.compile(r"#\s*(title_en|title_zh|description):\s*(.*)")


def parse_example(filename: str, text: str) -> dict:
    """Split a file into its header fields and its program."""
    meta = {"title_en": "", "title_zh": "", "description": ""}
    lines = text.splitlines(keepends=True)
    body_start = 0
    for i, line in enumerate(lines):
        m = HEADER.match(line)
        if not m:
            break
        meta[m.group(1)] = m.group(2).strip()
        body_start = i + 1
    stem = Path(filename).stem
    return {"id": re.sub(r"^\d+-", "", stem), **meta,
            "title_zh": meta["title_zh"] or meta["title_en"],
            "code": "".join(lines[body_start:])}


@lru_cache(maxsize=4)
def load_examples(directory: Path) -> tuple[dict, ...]:
    """Every example in a directory, in file-name order (read once per process)."""
    return tuple(parse_example(p.name, p.read_text(encoding="utf-8"))
                 for p in sorted(directory.glob("*.py")))


def titled(example: dict, lang: str) -> dict:
    """An example with `title` in the learner's language."""
    return {**example, "title": example["title_zh"] if lang == "zh" else example["title_en"]}


def list_examples(directory: Path, lang: str = "en") -> list[dict]:
    return [{k: v for k, v in titled(e, lang).items() if k != "code"}
            for e in load_examples(directory)]


def get_example(directory: Path, example_id: str, lang: str = "en") -> dict | None:
    for e in load_examples(directory):
        if e["id"] == example_id:
            return titled(e, lang)
    return None
