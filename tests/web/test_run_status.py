"""A run in progress is visible and can be stopped: a timer and a Stop button appear, the
previous picture is dimmed, Stop ends the run on the server and the next program runs at once;
in both languages, at 1440x900 and 1280x720."""
from __future__ import annotations

import re

import pytest

pytestmark = pytest.mark.browser
LOOP = "import torch\nx = torch.ones(2, requires_grad=True)\nwhile True:\n    pass\n"
QUICK = "import torch\nx = torch.ones(2, requires_grad=True)\n(x * 7).sum().backward()\nprint(x.grad)\n"


def runs(pg) -> int:
    return int(pg.get_attribute("[data-gs-player]", "data-runs") or 0)


def set_program(pg, code: str):
    pg.locator("#editor").fill(code)


@pytest.mark.parametrize("lang", ["en", "zh"])
@pytest.mark.parametrize("size", [(1440, 900), (1280, 720)], ids=lambda s: f"{s[0]}x{s[1]}")
def test_a_long_run_shows_a_timer_and_stop_ends_it(page, lang, size):
    page.set_viewport_size({"width": size[0], "height": size[1]})
    page.goto(f"{page.base}/?lang={lang}")
    page.wait_for_selector("body.is-ready", timeout=30000)
    before = runs(page)
    set_program(page, LOOP)
    page.click("#run")
    status = page.locator("#run-status")
    status.wait_for(state="visible", timeout=5000)
    root = page.locator("[data-gs-player]")
    assert "is-running" in root.get_attribute("class")
    # the old picture is dimmed, and the timer counts
    assert float(page.evaluate(
        "() => getComputedStyle(document.querySelector('#graph')).opacity")) < 0.5
    page.wait_for_timeout(1300)
    timer = page.inner_text("#run-timer")
    seconds = float(re.search(r"(\d+\.\d)", timer).group(1))
    assert seconds >= 1.0
    assert ("Running" if lang == "en" else "正在运行") in timer
    stop = page.locator("#stop")
    assert stop.is_visible() and stop.bounding_box()["y"] < size[1]
    assert stop.inner_text() == ("Stop" if lang == "en" else "停止")
    stop.click()
    status.wait_for(state="hidden", timeout=2000)
    assert "is-running" not in (root.get_attribute("class") or "")
    expected = "stopped" if lang == "en" else "停止"
    assert expected in page.inner_text("#console")
    assert page.locator("#run").is_enabled()
    # the page is not left busy: the next program runs and answers
    set_program(page, QUICK)
    page.click("#run")
    page.wait_for_selector(f'[data-gs-player][data-runs="{before + 1}"]', state="attached",
                           timeout=60000)
    page.click("#step-last")
    assert "[7., 7.]" in page.inner_text("#console")


def test_a_quick_run_never_flashes_the_timer(page):
    page.goto(f"{page.base}/")
    page.wait_for_selector("body.is-ready", timeout=30000)
    # "quick" is any run that answers before the delay: a delay no loaded machine reaches
    # makes this one quick, and a timer that shows before its delay fails the test
    page.evaluate("() => { document.querySelector('[data-gs-player]').dataset.showTimerAfterMs"
                  " = '120000'; }")
    page.evaluate("""() => { window.__seen = false; const box = document.querySelector('#run-status');
        new MutationObserver(() => { if (!box.hidden) window.__seen = true; })
            .observe(box, {attributes: true}); }""")
    before = runs(page)
    set_program(page, "print(1)\n")
    page.click("#run")
    page.wait_for_selector(f'[data-gs-player][data-runs="{before + 1}"]', state="attached",
                           timeout=60000)
    assert page.evaluate("() => window.__seen") is False
