"""The app in real headless Chromium against a live server, end to end.

Numbers checked on screen come from the program's own arithmetic (e.g. d(sum(3x))/dx = 3),
and the page must agree with the server's answer for the same program.
"""
from __future__ import annotations

import json
import re
from urllib.parse import quote
from urllib.request import Request, urlopen

import pytest

pytestmark = pytest.mark.browser

FIRST = ("import torch\nx = torch.tensor([1.0, 2.0], requires_grad=True)\ny = x * 3\n"
         "s = y.sum()\ns.backward()\nprint(x.grad)\n")


def open_app(pg, query: str = "", fragment: str = ""):
    pg.goto(f"{pg.base}/{query}{fragment}")
    pg.wait_for_selector("body.is-ready", timeout=30000)
    return pg


def runs(pg) -> int:
    return int(pg.get_attribute("[data-gs-player]", "data-runs") or 0)


def wait_run(pg, before: int):
    # selectors, not wait_for_function: the page's CSP (rightly) forbids string evaluation
    pg.wait_for_selector(f'[data-gs-player][data-runs="{before + 1}"]', state="attached",
                         timeout=30000)


def step_numbers(pg) -> tuple[int, int]:
    step, steps = (int(pg.get_attribute("#step-label", f"data-{k}")) for k in ("step", "steps"))
    # the label a person reads says the same numbers, in the page's language
    assert re.search(rf"\b{step}\b.*\b{steps}\b", pg.inner_text("#step-label"))
    return step, steps


def api(base: str, path: str, body: dict | None = None):
    data = json.dumps(body).encode() if body is not None else None
    req = Request(base + path, data=data, headers={"Content-Type": "application/json"})
    with urlopen(req, timeout=60) as r:
        return json.loads(r.read())


def go_to_kind(pg, kind: str, nth: int = 0) -> int:
    """Step with the keyboard until the current event has this kind; returns its index."""
    seqs = pg.evaluate(f"""() => document.querySelector('[data-gs-player]').gsPlayer.player.model
        .trace.events.filter(e => e.kind === {kind!r}).map(e => e.seq)""")
    target = seqs[nth]
    pg.click("#step-first")
    pg.focus("#graph")
    for _ in range(target):
        pg.keyboard.press("ArrowRight")
    assert step_numbers(pg)[0] == target + 1
    return target


def test_first_program_step_by_step_shows_the_numbers(page):
    open_app(page, "?code=" + quote(FIRST))
    i, n = step_numbers(page)
    assert i == 1 and n > 8
    assert page.input_value("#editor") == FIRST
    # forward: the MulBackward0 node appears with the op, tied to line 3
    mul = go_to_kind(page, "op", 0)
    assert page.locator("#graph .node.is-future").count() > 0     # sum() has not run yet
    assert "MulBackward0" in page.inner_text("#narration")
    assert page.inner_text(".editor-gutter .is-current") == "3"
    page.click("#step-next")
    assert step_numbers(page)[0] == mul + 2
    assert page.inner_text(".editor-gutter .is-current") == "4"
    page.click("#step-prev")
    assert step_numbers(page)[0] == mul + 1
    # backward: SumBackward0 lights up and sends [1, 1] on
    go_to_kind(page, "node_apply", 0)
    active = page.locator("#graph .node.is-active")
    assert active.count() == 1
    assert "SumBackward0" in active.text_content()
    assert "[1, 1]" in page.text_content("#graph .gs-overlay")
    # AccumulateGrad: x.grad goes from None to [3, 3]
    go_to_kind(page, "accumulate")
    assert "[3, 3]" in page.inner_text("#narration")
    assert "grad [3, 3]" in page.text_content("#graph .node.gs-leaf")
    assert "[3, 3]" in page.inner_text("#grads")
    # freed buffers look freed; the console shows what the program printed
    go_to_kind(page, "graph_freed")
    assert page.locator("#graph .node.is-freed").count() == 2
    page.click("#step-last")
    assert step_numbers(page)[0] == n
    assert "tensor([3., 3.])" in page.inner_text("#console")


def test_every_example_runs_and_steps(page):
    open_app(page)
    examples = api(page.base, "/api/examples")
    assert len(examples) >= 10
    for ex in examples:
        before = runs(page)
        page.select_option("#examples", ex["id"])
        wait_run(page, before)
        expected = api(page.base, "/api/run", {"code": api(page.base, f"/api/examples/{ex['id']}")["code"]})
        i, n = step_numbers(page)
        assert (i, n) == (1, len(expected["trace"]["events"])), ex["id"]
        page.focus("#graph")
        page.keyboard.press("ArrowRight")
        assert step_numbers(page)[0] == min(2, n)
        page.keyboard.press("ArrowLeft")
        assert step_numbers(page)[0] == 1
        page.keyboard.press("End")
        assert step_numbers(page) == (n, n), ex["id"]
        console = page.inner_text("#console")
        for line in expected["result"]["stdout"].splitlines()[:3]:
            assert line.strip() in console, (ex["id"], line)
        if expected["layout"]:
            # the last step shows the picture of the run's last iteration
            layout = expected["layout"]
            view = layout["iterations"][layout["steps"][-1][1]]["view"]
            ids = set((layout if view == 0 else layout["views"][view - 1])["nodes"])
            drawn = set(page.eval_on_selector_all("#graph .node", "els => els.map(e => e.id)"))
            assert ids <= drawn, ex["id"]
        assert page.inner_text("#narration").strip(), ex["id"]


def test_second_backward_error_on_the_node_and_the_line(page):
    open_app(page)
    before = runs(page)
    page.select_option("#examples", "retain-graph")
    wait_run(page, before)
    go_to_kind(page, "error")
    console = page.inner_text("#console")
    assert "RuntimeError: Trying to backward through the graph a second time" in console
    assert "retain_graph=True" in page.inner_text("#console .explain")
    error_node = page.locator("#graph .node.is-error")
    assert error_node.count() == 1
    assert "Backward" in error_node.text_content()
    assert page.locator(".editor-line-mark.is-error").is_visible()
    assert page.inner_text(".editor-gutter .is-current") == "11"   # loss2.backward()


def test_vjp_panel_equals_x_grad(page):
    open_app(page)
    before = runs(page)
    page.select_option("#examples", "vjp-loop")
    wait_run(page, before)
    go_to_kind(page, "backward_begin")
    assert "[0.5, 0.5, 0.5]" in page.inner_text("#vjp .vjp-v")
    assert page.locator("#vjp .jac-row").count() == 3
    assert page.inner_text("#vjp .vjp-result") == "[512, 512, 512]"
    page.keyboard.press("End")
    assert page.inner_text("#vjp .vjp-grad") == "[512, 512, 512]"
    assert page.locator("#vjp .vjp-engine.is-match").count() == 1
    assert "tensor([512., 512., 512.])" in page.inner_text("#console")


def test_accumulation_across_calls_and_zero(page):
    open_app(page)
    before = runs(page)
    page.select_option("#examples", "accumulate")
    wait_run(page, before)
    page.keyboard.press("End")
    items = page.locator("#grads .hist")
    assert items.count() == 4
    texts = [items.nth(k).inner_text() for k in range(4)]
    assert texts[0].endswith("None + [1, 1] = [1, 1]")
    assert texts[1].endswith("[1, 1] + [1, 1] = [2, 2]")
    assert "zero_()" in texts[2] and texts[2].endswith("[2, 2] → [0, 0]")
    assert texts[3].endswith("[0, 0] + [1, 1] = [1, 1]")
    # unnumbered: the third pass is labelled "backward 3", with no list number 4 beside it
    assert page.locator("#grads ol").count() == 0 and "backward 3" in texts[3]
    # stepping back undoes history: at the first accumulate only one entry exists
    go_to_kind(page, "accumulate", 0)
    assert page.locator("#grads .hist").count() == 1


def test_permalink_round_trip_and_editor_survives_reload(page, context):
    program = FIRST.replace("x * 3", "x * 5")
    open_app(page)
    page.fill("#editor", program)
    before = runs(page)
    page.click("#run")
    wait_run(page, before)
    page.focus("#graph")
    for _ in range(4):
        page.keyboard.press("ArrowRight")
    context.grant_permissions(["clipboard-read", "clipboard-write"])
    page.click("#permalink")
    page.wait_for_url(re.compile(r".*#z=.*step=5"))
    url = page.url
    assert "#z=" in url and "x * 5" not in url
    other = context.new_page()
    other.base = page.base
    other.on("pageerror", lambda e: page.problems.append(f"pageerror: {e}"))
    other.goto(url)
    other.wait_for_selector("body.is-ready", timeout=30000)
    assert other.input_value("#editor") == program
    assert step_numbers(other)[0] == 5
    other.close()
    # a plain reload (no fragment) keeps the editor's text
    page.goto(page.base + "/")
    page.wait_for_selector("body.is-ready", timeout=30000)
    assert page.input_value("#editor") == program
    # typing without running, then reloading the page's own URL, keeps what was typed
    page.fill("#editor", program + "print('typed')\n")
    page.wait_for_timeout(600)              # the editor saves after a short pause in typing
    assert "#z=" in page.url
    page.reload()
    page.wait_for_selector("body.is-ready", timeout=30000)
    assert page.input_value("#editor").endswith("print('typed')\n")


def test_chinese_ui_switch_and_remembered(page):
    open_app(page, "?lang=zh")
    assert page.get_attribute("html", "lang") == "zh-Hans"
    assert "运行" in page.inner_text("#run")
    page.focus("#graph")
    page.keyboard.press("ArrowRight")
    assert re.search(r"[\u4e00-\u9fff]", page.inner_text("#narration"))
    assert step_numbers(page)[0] == 2
    assert re.fullmatch(r"第 2 / \d+ 步", page.inner_text("#step-label"))
    page.select_option("#lang", "en")
    page.wait_for_selector('html[lang="en"]', state="attached")
    assert "Run" in page.inner_text("#run")
    assert re.fullmatch(r"step 2 / \d+", page.inner_text("#step-label"))
    assert not re.search(r"[\u4e00-\u9fff]", page.inner_text("#narration"))
    page.select_option("#lang", "zh")
    page.wait_for_selector('html[lang="zh-Hans"]', state="attached")
    page.goto(page.base + "/")                 # no ?lang=: the remembered choice wins
    page.wait_for_selector("body.is-ready", timeout=30000)
    assert "运行" in page.inner_text("#run")
    assert "示例" in page.inner_text("#examples")


def test_presenter_mode_hides_the_editor_and_steps_by_keyboard(page):
    open_app(page, "?presenter=1&code=" + quote(FIRST))
    assert "is-presenter" in page.get_attribute("body", "class")
    assert not page.locator("#editor").is_visible()
    assert page.locator("#graph svg").is_visible()
    size = page.eval_on_selector("#narration", "e => parseFloat(getComputedStyle(e).fontSize)")
    assert size >= 22
    page.keyboard.press("ArrowRight")
    page.keyboard.press("ArrowRight")
    assert step_numbers(page)[0] == 3
    page.keyboard.press("p")
    assert page.locator("#editor").is_visible()


def test_embed_mode_and_exports(page):
    open_app(page, "?embed=1&code=" + quote(FIRST))
    assert page.locator(".topbar").count() == 0
    assert page.locator("#lang").is_visible()
    open_app(page, "?code=" + quote(FIRST))
    page.click("#export")
    with page.expect_download() as info:
        page.click("#export-json")
    data = json.loads(open(info.value.path(), encoding="utf-8").read())
    assert data["format"] == "gradstep-trace" and data["program"]["source"] == FIRST
    page.click("#export")
    with page.expect_download() as info:
        page.click("#export-svg")
    svg = open(info.value.path(), encoding="utf-8").read()
    assert svg.startswith("<svg") and 'id="n0"' in svg and "<style>" in svg
    assert "transform: translate" not in svg.split(">", 1)[0]     # no on-screen pan in the file
    page.click("#export")
    with page.expect_download() as info:
        page.click("#export-png")
    png = open(info.value.path(), "rb").read()
    assert png[:8] == b"\x89PNG\r\n\x1a\n" and len(png) > 2000


def test_inspector_shows_a_clicked_tensor(page):
    open_app(page, "?code=" + quote(FIRST))
    page.keyboard.press("End")
    page.click("#graph .node#t0")
    text = page.inner_text("#inspector")
    assert "x" in text and "torch.float32" in text and "True" in text
    assert "tensor([3., 3.])" in text           # .grad at the last step
    assert "torch.Size([2])" in text


def test_training_loop_plots_the_loss_and_marks_the_pass(page):
    open_app(page)
    before = runs(page)
    page.select_option("#examples", "training-loop")
    wait_run(page, before)
    assert page.locator("#plot svg .curve").is_visible()
    assert page.locator("#plot svg .marker").count() == 0      # no pass has started yet
    page.click("#jump-backward")
    assert page.locator("#plot svg .marker").count() == 1
    assert "backward" in page.inner_text("#pass-badge")
    summary = page.inner_text("#plot .note")
    assert re.search(r"\d+ points", summary)
    # the timeline: a click in its middle lands in the middle of the run
    strip = page.locator("#timeline").bounding_box()
    page.locator("#timeline").click(position={"x": strip["width"] / 2, "y": strip["height"] / 2})
    i, n = step_numbers(page)
    assert abs(i - n / 2) <= 2
    # a click near the end of the curve goes to one of the last passes, kept in full
    box = page.locator("#plot svg").bounding_box()
    page.locator("#plot svg").click(position={"x": box["width"] * 0.995, "y": box["height"] / 2})
    i, n = step_numbers(page)
    assert i > n * 0.5
    assert "backward" in page.inner_text("#pass-badge")


def test_create_graph_shows_the_graph_backward_built(page):
    open_app(page)
    before = runs(page)
    page.select_option("#examples", "second-derivative")
    wait_run(page, before)
    page.keyboard.press("End")
    built = page.locator("#graph .node.is-in-backward")
    assert built.count() >= 2
    assert "tensor([2.])" in page.inner_text("#console")


def test_refused_and_broken_programs_explain_themselves(page):
    open_app(page, "?code=" + quote("import os\nprint(os.getcwd())\n"))
    console = page.inner_text("#console")
    assert "os" in console
    assert page.locator("#console .console-error").count() == 1
    assert page.locator("#console .explain").count() == 1
    page.fill("#editor", "import torch\nx = torch.ones(2, requires_grad=True)\ny = x * 2\ny.backward()\n")
    before = runs(page)
    page.click("#run")
    wait_run(page, before)
    page.keyboard.press("End")
    assert "grad can be implicitly created only for scalar outputs" in page.inner_text("#console")
    assert "y.backward(v)" in page.inner_text("#console .explain")
    assert page.inner_text(".editor-gutter .is-current") == "4"


def test_keyboard_inspection_and_labels(page):
    open_app(page, "?code=" + quote(FIRST))
    page.keyboard.press("End")
    page.focus("#graph")
    page.keyboard.press("]")
    assert page.locator("#graph .node.is-selected").count() == 1
    first = page.inner_text("#inspector")
    page.keyboard.press("]")
    assert page.inner_text("#inspector") != first
    labels = page.eval_on_selector_all("#graph .node", "els => els.map(e => e.getAttribute('aria-label'))")
    assert all(labels) and any("requires_grad=True" in x for x in labels)
    for sel in ("#step-first", "#step-prev", "#play", "#step-next", "#step-last", "#zoom-fit"):
        assert page.get_attribute(sel, "aria-label"), sel


def test_paths_that_meet_are_added_before_accumulating(page):
    program = ("import torch\nx = torch.tensor([3.0], requires_grad=True)\ny = x * x\n"
               "y.backward()\nprint(x.grad)\n")
    open_app(page, "?code=" + quote(program))
    go_to_kind(page, "accumulate")
    narration = page.inner_text("#narration")
    assert "2 paths meet here" in narration and "[3] + [3] = [6]" in narration
    assert "+ ([3] + [3])" in page.text_content("#graph .gs-overlay")
    assert "grad [6]" in page.text_content("#graph .node.gs-leaf")
    page.keyboard.press("End")
    assert "tensor([6.])" in page.inner_text("#console")
