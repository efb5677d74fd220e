"""Opening a program in the player and driving it, for the browser tests (tests/web, whose
conftest puts this folder on the import path).

The page fixture (tests/web/conftest.py) gives a page whose `base` is the live server's URL;
these helpers open a program on it the way a link does (`/?code=...`), wait until its answer
is drawn, and read or move the player through the element that carries it.
"""
from __future__ import annotations

from urllib.parse import quote

# The player's controller, as the page's scripts attach it to its root element.
PLAYER = "document.querySelector('[data-gs-player]').gsPlayer"


def wait_player(pg, runs: int = 1, timeout: float = 30000) -> None:
    """Wait until the player has drawn its `runs`-th answer."""
    pg.wait_for_selector(f'[data-gs-player][data-runs="{runs}"]', state="attached",
                         timeout=timeout)


def open_program(pg, source: str, lang: str = "en", extra: str = "",
                 timeout: float = 30000):
    """Open `source` in the player as a link would (`extra` adds query parameters, e.g.
    "&vs=..."), and wait for the page and the program's answer."""
    pg.goto(f"{pg.base}/?lang={lang}{extra}&code=" + quote(source))
    pg.wait_for_selector("body.is-ready", timeout=timeout)
    wait_player(pg, 1, timeout)
    return pg


def events(pg) -> list:
    """The trace's events, as the player holds them."""
    return pg.evaluate(f"() => {PLAYER}.player.model.trace.events")


def go(pg, seq: int) -> None:
    """Show step `seq` (an index into the events)."""
    pg.evaluate(f"(i) => {PLAYER}.player.go(i)", seq)


def open_lesson(pg, lesson_id: str, lang: str = "en", size: tuple[int, int] | None = None,
                timeout: float = 60000):
    """Open a lesson's page (at `size`, if given) and wait for its run to be drawn and its
    "watch for" pointers to be enabled, which happens once the run is resolved."""
    if size is not None:
        pg.set_viewport_size({"width": size[0], "height": size[1]})
    pg.goto(f"{pg.base}/lessons/{lesson_id}?lang={lang}")
    wait_player(pg, 1, timeout)
    pg.wait_for_selector("[data-watch]:not([disabled])", timeout=30000)
