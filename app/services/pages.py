"""What the HTML pages need besides templates: the UI language and its strings.

The language comes from `?lang=`, then the browser's Accept-Language, then English. UI strings
live in `static/i18n/{lang}.json` (shared with the browser code); a missing or broken file
gives an empty table rather than a broken page.

Example:
    >>> negotiate_lang(None, "zh-CN,zh;q=0.9,en;q=0.8")
    'zh'
    >>> negotiate_lang("en", "zh-CN")
    'en'
"""
from __future__ import annotations

import json
import logging
from pathlib import Path

LANGS = ("en", "zh")
log = logging.getLogger("gradstep.app")


def negotiate_lang(query: str | None, accept_language: str | None) -> str:
    """`?lang=` if it names a supported language, else the best Accept-Language match."""
    if query:
        primary = query.strip().lower().split("-")[0]
        if primary in LANGS:
            return primary
    ranked = []
    for i, part in enumerate((accept_language or "").split(",")):
        tag, _, params = part.strip().partition(";")
        q = 1.0
        if params.strip().startswith("q="):
            try:
                q = float(params.strip()[2:])
            except ValueError:
                q = 0.0
        primary = tag.strip().lower().split("-")[0]
        if primary in LANGS and q > 0:
            ranked.append((-q, i, primary))
    return min(ranked)[2] if ranked else "en"


def load_strings(static_dir: Path, lang: str) -> dict:
    """The UI strings of a language, falling back key by key to English."""
    strings: dict = {}
    for code in ("en", lang) if lang != "en" else ("en",):
        path = static_dir / "i18n" / f"{code}.json"
        try:
            data = json.loads(path.read_text(encoding="utf-8"))
        except FileNotFoundError:
            continue
        except (OSError, ValueError) as exc:
            log.warning("cannot read %s: %s", path.name, exc)
            continue
        if isinstance(data, dict):
            strings.update(data)
    return strings


def sandbox_is_partial(pool) -> bool:
    """Whether the sandbox runs without seccomp or Landlock (the pool reports its OS layers;
    app/lifespan.py logs them at start-up). The language layer is then the only wall between
    a program and the computer, so the pages run a program from elsewhere (a link, a teacher's
    lesson folder) only when the learner presses Run. A pool that reports nothing (a test
    double) counts as whole."""
    layers = getattr(pool, "layers", None)
    if layers is None:
        return False
    return not (layers.get("seccomp") and layers.get("landlock"))


def flag(value: str | None) -> bool:
    """`?embed=1`, `?embed=true` … are on; absent, 0, false, off are off."""
    return (value or "").strip().lower() in {"1", "true", "yes", "on"}
