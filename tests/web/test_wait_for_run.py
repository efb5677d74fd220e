"""On a server whose sandbox lacks its OS layers, a program from a link or a teacher's lesson
folder is shown and waits for Run, with a line saying why (static/js/wait_for_run.js); the
learner's own program and the built-in examples run as the page opens."""
from __future__ import annotations

import tempfile
from pathlib import Path
from urllib.parse import quote

import pytest

from live_server import LiveServer

pytestmark = pytest.mark.browser

SHOTS = Path(__file__).resolve().parents[2] / "artifacts" / "screenshots"   # gitignored
PROGRAM = ("import torch\nx = torch.tensor([1.0, 2.0], requires_grad=True)\n"
           "(x * x).sum().backward()\nprint(x.grad)\n")
LESSON = '''id = "teachers-square"
order = 30
program = \'\'\'
import torch
x = torch.tensor(3.0, requires_grad=True)
(x * x).backward()
print(x.grad)
\'\'\'

[en]
title = "Squares"
summary = "The gradient of x squared."
body = "Twice x."

[zh]
title = "平方"
summary = "x 平方的梯度。"
body = "两倍的 x。"

[[watch]]
event = "accumulate"
en = "x.grad becomes 6."
zh = "x.grad 变成 6。"
'''


@pytest.fixture(scope="module")
def partial_server():
    """A server whose sandbox runs without seccomp and Landlock, with a teacher's lesson."""
    with tempfile.TemporaryDirectory() as folder:
        (Path(folder) / "square.toml").write_text(LESSON, encoding="utf-8")
        env = {"GRADSTEP_RATE_LIMIT": "0", "GRADSTEP_SANDBOX_OS_LAYERS": "none",
               "GRADSTEP_SANDBOX_STRICT": "0", "GRADSTEP_LESSONS_DIR": folder}
        with LiveServer(env=env) as live:
            yield live.url


def runs_requested(pg) -> list[str]:
    seen: list[str] = []
    pg.on("request", lambda r: seen.append(r.url)
          if "/api/" in r.url and r.url.split("?")[0].endswith("/run") else None)
    return seen


def runs(pg) -> int:
    return int(pg.get_attribute("[data-gs-player]", "data-runs") or 0)


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_a_program_from_a_link_waits_for_run(page, partial_server, lang):
    requested = runs_requested(page)
    page.goto(f"{partial_server}/?lang={lang}&code={quote(PROGRAM)}")
    page.wait_for_selector("body.is-ready", state="attached", timeout=60000)
    assert page.input_value("#editor") == PROGRAM
    line = page.locator(".wait-run")
    line.wait_for()
    text = line.inner_text()
    assert ("came from a link" in text and "press Run" in text) if lang == "en" \
        else ("来自一个链接" in text and "运行" in text)
    assert page.get_attribute("[data-gs-player]", "data-waiting") == "link"
    page.wait_for_timeout(500)
    assert runs(page) == 0 and requested == [], requested
    page.click("#run")
    page.wait_for_selector('[data-gs-player][data-runs="1"]', state="attached", timeout=60000)
    assert page.locator(".wait-run").count() == 0
    page.click("#step-last")
    assert "tensor([2., 4.])" in page.inner_text("#console")


def test_the_line_follows_a_language_switch(page, partial_server):
    page.goto(f"{partial_server}/?lang=en&code={quote(PROGRAM)}")
    page.wait_for_selector(".wait-run")
    page.select_option("#lang", "zh")
    page.locator(".wait-run", has_text="链接").wait_for()
    assert runs(page) == 0


def test_a_link_followed_on_an_open_page_waits_too(page, partial_server):
    page.goto(f"{partial_server}/?lang=en")
    page.wait_for_selector('[data-gs-player][data-runs="1"]', state="attached", timeout=60000)
    assert page.locator(".wait-run").count() == 0         # the first example: it ran
    page.evaluate("code => { location.hash = 'code=' + encodeURIComponent(code); }", PROGRAM)
    page.wait_for_selector(".wait-run")
    assert page.input_value("#editor") == PROGRAM and runs(page) == 1


def test_a_teachers_lesson_waits_for_run_and_then_plays(page, partial_server):
    requested = runs_requested(page)
    page.goto(f"{partial_server}/lessons/teachers-square?lang=en")
    line = page.locator(".wait-run")
    line.wait_for(timeout=60000)
    assert "lesson folder" in line.inner_text()
    assert "x * x" in page.input_value("#editor")
    page.wait_for_timeout(500)
    assert requested == [], requested
    SHOTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(SHOTS / "wait-for-run-lesson-en-1440x900.png"))
    page.click("#run")
    page.wait_for_selector('[data-gs-player][data-runs="1"]', state="attached", timeout=60000)
    assert page.locator(".wait-run").count() == 0
    # the lesson's pointers are wired to the run it made
    page.wait_for_selector("[data-watch]:not([disabled])", timeout=30000)


def test_a_built_in_lesson_runs_as_it_opens(page, partial_server):
    page.goto(f"{partial_server}/lessons/scalar-backward?lang=en")
    page.wait_for_selector('[data-gs-player][data-runs="1"]', state="attached", timeout=60000)
    assert page.locator(".wait-run").count() == 0


@pytest.mark.parametrize("size", [(1440, 900), (1280, 720)])
@pytest.mark.parametrize("lang", ["en", "zh"])
def test_screenshots_of_the_waiting_line(browser, partial_server, size, lang):
    ctx = browser.new_context(viewport={"width": size[0], "height": size[1]})
    try:
        pg = ctx.new_page()
        pg.goto(f"{partial_server}/?lang={lang}&code={quote(PROGRAM)}")
        pg.wait_for_selector(".wait-run")
        pg.wait_for_selector("body.is-ready", state="attached")
        SHOTS.mkdir(parents=True, exist_ok=True)
        pg.screenshot(path=str(SHOTS / f"wait-for-run-{lang}-{size[0]}x{size[1]}.png"))
        box = pg.locator(".wait-run").bounding_box()
        run = pg.locator("#run").bounding_box()
        assert box and run and box["y"] >= run["y"] + run["height"] - 1   # under Run, in view
        assert box["y"] + box["height"] <= size[1]
    finally:
        ctx.close()


def test_a_link_to_two_runs_waits_and_then_runs_both(page, partial_server):
    import base64
    import zlib

    def token(code: str) -> str:
        packer = zlib.compressobj(9, zlib.DEFLATED, -15)
        return base64.urlsafe_b64encode(packer.compress(code.encode()) + packer.flush()) \
            .decode().rstrip("=")
    requested = runs_requested(page)
    after = PROGRAM.replace("(x * x)", "(x * x * x)")
    assert after != PROGRAM
    page.goto(f"{partial_server}/?lang=en#z={token(after)}&vs={token(PROGRAM)}")
    page.wait_for_selector(".wait-run", timeout=60000)
    page.wait_for_timeout(500)
    assert requested == [] and page.locator("#compare").is_hidden()
    page.click("#run")
    page.wait_for_selector("#compare:not([hidden]) .compare-pane-b", timeout=60000)
    assert len(requested) == 2                     # the later program, then the earlier one
    assert page.input_value("#editor") == after
