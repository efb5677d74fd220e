"""`%%gradstep` on a real Jupyter kernel (nbclient), then its output opened in Chromium.

The notebook is executed as a learner's would be: `%load_ext gradstep`, a cell with the
magic, a `gradstep.show(...)` call, and a cell whose program fails. The player in the
output is then played in the browser, offline, from the saved notebook's HTML."""
from __future__ import annotations

import html as htmlmod
import re

import pytest

pytestmark = pytest.mark.browser

CELL = """%%gradstep --height 520
import torch
x = torch.tensor([1.0, 2.0, 3.0], requires_grad=True)
y = (x * x).sum()
y.backward()
print(x.grad)
"""
SHOW = """import gradstep
gradstep.show("import torch\\nw = torch.ones(2, requires_grad=True)\\n(w * 3).sum().backward()",
              lang="zh")
"""
COMPARE = """import gradstep
before = "import torch\\nw = torch.ones(2, requires_grad=True)\\n(w * 3).sum().backward()\\n"
gradstep.compare(before, before.replace("w * 3", "w * 5"))
"""
FAILS = """%%gradstep
import torch
a = torch.ones(2, requires_grad=True)
b = (a * a).sum()
b.backward()
b.backward()
"""


@pytest.fixture(scope="module")
def executed(tmp_path_factory):
    import nbformat
    from nbclient import NotebookClient

    nb = nbformat.v4.new_notebook()
    nb.cells = [nbformat.v4.new_code_cell("%load_ext gradstep"),
                nbformat.v4.new_code_cell(CELL), nbformat.v4.new_code_cell(SHOW),
                nbformat.v4.new_code_cell("%%gradstep --lang xx\nimport torch\n"),
                nbformat.v4.new_code_cell(FAILS), nbformat.v4.new_code_cell(COMPARE)]
    cwd = tmp_path_factory.mktemp("nb")
    NotebookClient(nb, timeout=180, kernel_name="python3",
                   resources={"metadata": {"path": str(cwd)}}).execute()
    return nb, cwd


def _outputs(cell, kind):
    return [o for o in cell.outputs if o.output_type == kind]


def _player_html(cell) -> str:
    shown = [o for o in cell.outputs if o.output_type in ("display_data", "execute_result")]
    assert shown, cell.outputs
    frame = shown[0].data["text/html"]
    return htmlmod.unescape(re.search(r'srcdoc="([^"]*)"', frame).group(1))


def test_magic_prints_the_output_as_text(executed):
    nb, _ = executed
    text = "".join(o.text for o in _outputs(nb.cells[1], "stream"))
    assert "tensor([2., 4., 6.])" in text
    # nothing red under the cell: Graphviz's font warnings do not reach the notebook
    assert [o.name for o in _outputs(nb.cells[1], "stream")] == ["stdout"]
    assert 'height:520px' in [o for o in nb.cells[1].outputs
                              if o.output_type == "display_data"][0].data["text/html"]


def test_bad_option_is_a_clear_message(executed):
    nb, _ = executed
    text = "".join(o.text for o in _outputs(nb.cells[3], "stream"))
    assert "--lang en|zh" in text
    assert not _outputs(nb.cells[3], "error")


def _play(browser, tmp_path, document: str):
    path = tmp_path / "out.html"
    path.write_text(document, encoding="utf-8")
    ctx = browser.new_context(viewport={"width": 1280, "height": 720})
    page = ctx.new_page()
    refused = []
    page.route("**/*", lambda r: r.continue_() if r.request.url.startswith(("file:", "blob:"))
               else (refused.append(r.request.url), r.abort()))
    page.goto(path.as_uri())
    page.wait_for_selector("[data-gs-player][data-runs='1']", timeout=15000)
    page.locator("#step-last").click()
    return ctx, page, refused


def test_magic_output_plays_in_chromium(executed, browser, tmp_path):
    nb, _ = executed
    ctx, page, refused = _play(browser, tmp_path, _player_html(nb.cells[1]))
    try:
        label = page.locator("#step-label")
        assert label.get_attribute("data-step") == label.get_attribute("data-steps")
        assert "x.grad" in page.locator("#grads").inner_text()
        assert refused == []
    finally:
        ctx.close()


def test_show_opens_in_chinese(executed, browser, tmp_path):
    nb, _ = executed
    ctx, page, _ = _play(browser, tmp_path, _player_html(nb.cells[2]))
    try:
        assert page.locator("html").get_attribute("data-lang") == "zh"
        assert "w.grad" in page.locator("#grads").inner_text()
    finally:
        ctx.close()


def test_a_failing_cell_shows_pytorchs_error_in_the_player(executed, browser, tmp_path):
    nb, _ = executed
    assert not _outputs(nb.cells[4], "error")        # the learner's error is not the kernel's
    ctx, page, _ = _play(browser, tmp_path, _player_html(nb.cells[4]))
    try:
        assert "Trying to backward through the graph a second time" in \
            page.locator("#console").inner_text()
    finally:
        ctx.close()


def test_compare_plays_two_runs_side_by_side(executed, browser, tmp_path):
    nb, _ = executed
    document = _player_html(nb.cells[5])
    assert 'id="gs-answer-before"' in document
    path = tmp_path / "compare.html"
    path.write_text(document, encoding="utf-8")
    ctx = browser.new_context(viewport={"width": 1280, "height": 720})
    page = ctx.new_page()
    try:
        page.route("**/*", lambda r: r.continue_() if r.request.url.startswith(("file:", "blob:"))
                   else r.abort())
        page.goto(path.as_uri())
        page.wait_for_selector("#compare:not([hidden]) .compare-pane-b .node", timeout=15000)
        assert "w * 3" in page.inner_text(".compare-pane-a .compare-code li.is-changed")
        assert "w * 5" in page.inner_text(".compare-pane-b .compare-code li.is-changed")
        page.keyboard.press("End")
        assert page.locator(".compare-pane-b .node.is-differs").count() > 0
    finally:
        ctx.close()
