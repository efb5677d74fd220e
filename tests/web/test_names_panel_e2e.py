"""The names panel in real Chromium (live server): at every step it lists which tensor each
name of the program refers to, a click or Enter on a name selects that box and brings it into
view, and a rebinding shows the box the name left. Programs: an RNN loop rebinding `h`, a
training loop rebinding `loss`, `x.grad` and `model[0].weight.grad`, and the seed examples;
in English and Chinese, in presenter mode and in the exported file.
"""
from __future__ import annotations

import json
import re
import subprocess
import sys
from pathlib import Path

import pytest
from player_page import open_program

pytestmark = pytest.mark.browser

ROOT = Path(__file__).resolve().parents[2]
SHOTS = ROOT / "artifacts" / "screenshots"
EXAMPLES = sorted((ROOT / "app" / "examples").glob("*.py"))
STRINGS = {lang: json.loads((ROOT / "static" / "i18n" / f"{lang}.json").read_text("utf-8"))
           for lang in ("en", "zh")}

RNN_LOOP = """import torch
torch.manual_seed(0)
Wx = torch.randn(2, 3, requires_grad=True)
Wh = torch.randn(3, 3, requires_grad=True)
xs = torch.randn(4, 2)
h = torch.zeros(3)
for t in range(4):
    h = torch.tanh(xs[t] @ Wx + h @ Wh)
loss = h.sum()
loss.backward()
print(Wx.grad)
"""

RNN_CELL = """import torch
import torch.nn as nn
torch.manual_seed(0)
class RNNCell(nn.Module):
    def __init__(self):
        super().__init__()
        self.x2h = nn.Linear(2, 3)
        self.h2h = nn.Linear(3, 3)
    def forward(self, x, h):
        return torch.tanh(self.x2h(x) + self.h2h(h))
cell = RNNCell()
xs = torch.randn(3, 2)
h = torch.zeros(3)
for t in range(3):
    h = cell(xs[t], h)
loss = h.pow(2).sum()
loss.backward()
"""

TRAINING = """import torch
import torch.nn as nn
torch.manual_seed(0)
model = nn.Linear(2, 1)
opt = torch.optim.SGD(model.parameters(), lr=0.1)
x = torch.randn(4, 2)
y = torch.randn(4, 1)
for epoch in range(3):
    opt.zero_grad()
    pred = model(x)
    loss = ((pred - y) ** 2).mean()
    loss.backward()
    opt.step()
"""

GRADS = """import torch
import torch.nn as nn
torch.manual_seed(0)
model = nn.Sequential(nn.Linear(3, 2), nn.Tanh(), nn.Linear(2, 1))
x = torch.randn(4, 3, requires_grad=True)
out = model(x).sum()
out.backward()
print(x.grad)
print(model[0].weight.grad)
"""


def go_to(page, seq: int) -> None:
    page.evaluate("(i) => document.querySelector('[data-gs-player]').gsPlayer.player.go(i)", seq)


def rows(page) -> list[dict]:
    """The panel as shown: name, the box's label, the tensor id, whether rebound here and the
    box it left."""
    return page.evaluate("""() => Array.from(document.querySelectorAll('#names .names-row'))
        .map((li) => ({ name: li.dataset.name, label: li.dataset.label, tensor: li.dataset.tensor,
          changed: li.classList.contains('is-changed'),
          was: (li.querySelector('.names-was s') || {}).textContent || null,
          shown: li.querySelector('.names-name').textContent + ' → '
            + li.querySelector('.names-box').textContent }))""")


def row(page, name: str) -> dict | None:
    return next((r for r in rows(page) if r["name"] == name), None)


def made(page, prefix: str) -> list[dict]:
    """The op events whose output is named `prefix`, `prefix₂`, … in step order."""
    return page.evaluate("""(p) => document.querySelector('[data-gs-player]').gsPlayer.player
        .model.trace.events.filter((e) => e.kind === 'op' && e.output.name
          && e.output.name.replace(/[₀-₉]+$/, '') === p)
        .map((e) => ({ seq: e.seq, id: e.output.id, name: e.output.name }))""", prefix)


def selected(page) -> str | None:
    return page.evaluate("() => document.querySelector('[data-gs-player]').gsPlayer.player.model.selected")


def box_in_view(page, tensor: str) -> bool:
    """The box drawn for `tensor` is selected and lies inside the graph pane."""
    return page.evaluate("""(id) => {
        const g = document.querySelector('#graph svg g.node.is-selected');
        if (!g) return false;
        const b = g.getBoundingClientRect(), p = document.querySelector('#graph').getBoundingClientRect();
        return b.width > 0 && b.right > p.left && b.left < p.right && b.bottom > p.top && b.top < p.bottom;
    }""", tensor)


def shoot(page, name: str) -> None:
    SHOTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(SHOTS / f"{name}.png"))


def test_an_rnn_loop_moves_h_to_each_new_box(page):
    open_program(page, RNN_LOOP)
    hs = made(page, "h")
    # every iteration's h has its name, so each rebinding is a step of the panel
    assert [m["name"] for m in hs] == ["h₂", "h₃", "h₄", "h₅"]
    before = "h"
    for m in hs:
        go_to(page, m["seq"] - 1)
        r = row(page, "h")
        assert r["label"] == before and not r["changed"], r
        go_to(page, m["seq"])
        r = row(page, "h")
        assert r["label"] == m["name"] and r["tensor"] == m["id"], r
        assert r["changed"] and r["was"] == before, r
        assert r["shown"] == f"h → {m['name']}"
        before = m["name"]
    # one row per name however often it was rebound
    assert [r["name"] for r in rows(page)].count("h") == 1
    page.click('#names .names-row[data-name="h"] button')
    assert selected(page) == hs[-1]["id"]
    assert box_in_view(page, hs[-1]["id"])
    inspector = page.locator("#inspector").inner_text()
    assert "h₅" in inspector, inspector


def test_an_rnn_cell_module_in_a_loop_rebinds_h(page):
    open_program(page, RNN_CELL)
    hs = made(page, "h")
    assert [m["name"] for m in hs] == ["h₂", "h₃", "h₄"]
    go_to(page, hs[1]["seq"])
    r = row(page, "h")
    assert (r["label"], r["was"], r["changed"]) == ("h₃", "h₂", True)
    # the cell's parameters are listed by their paths, from the start
    names = [x["name"] for x in rows(page)]
    assert {"cell.x2h.weight", "cell.h2h.bias", "xs"} <= set(names), names
    page.click('#names .names-row[data-name="cell.x2h.weight"] button')
    assert box_in_view(page, selected(page))


def test_a_training_loop_rebinds_loss_each_iteration(page):
    open_program(page, TRAINING)
    losses = made(page, "loss")
    assert [m["name"] for m in losses] == ["loss", "loss₂", "loss₃"]
    # the first binding is a binding, not a rebinding
    go_to(page, losses[0]["seq"])
    r = row(page, "loss")
    assert (r["label"], r["changed"], r["was"]) == ("loss", True, None), r
    assert page.locator('#names .is-changed .names-chip').inner_text() == STRINGS["en"]["names_bound"]
    go_to(page, losses[1]["seq"])
    r = row(page, "loss")
    assert (r["label"], r["changed"], r["was"]) == ("loss₂", True, "loss"), r
    assert page.locator('#names .is-changed .names-chip').inner_text() == STRINGS["en"]["names_rebound"]
    shoot(page, "names-training-1440x900")
    # a step later the name still refers to loss₂, no longer marked
    go_to(page, losses[1]["seq"] + 1)
    r = row(page, "loss")
    assert (r["label"], r["changed"]) == ("loss₂", False)
    # at the backward pass of the third iteration, loss is that iteration's loss
    third = page.evaluate("""() => document.querySelector('[data-gs-player]').gsPlayer.player
        .model.trace.events.filter((e) => e.kind === 'backward_begin')[2]""")
    go_to(page, third["seq"])
    r = row(page, "loss")
    assert r["label"] == "loss₃" and r["tensor"] == third["roots"][0]
    # the parameters keep their names; their .grad rows follow once backward filled them
    names = [x["name"] for x in rows(page)]
    assert {"model.weight", "model.bias", "pred", "x", "y"} <= set(names), names
    page.click('#names .names-row[data-name="loss"] button')
    assert selected(page) == third["roots"][0]
    assert box_in_view(page, third["roots"][0])


def test_x_grad_and_a_module_paths_grad_select_their_owners_box(page):
    open_program(page, GRADS)
    go_to(page, 0)
    assert row(page, "x.grad") is None
    page.click("#step-last")
    r = row(page, "x.grad")
    owner = row(page, "x")
    # drawn in x's own box, whose grad row shows it
    assert r is not None and r["tensor"] == owner["tensor"] and r["label"] == "x"
    assert r["shown"] == "x.grad → x"
    assert page.locator('#names .names-row[data-name="x.grad"] .names-part').inner_text() \
        == STRINGS["en"]["names_grad_row"]
    w = row(page, "model[0].weight.grad")
    assert w is not None and w["tensor"] == row(page, "model[0].weight")["tensor"]
    names = [x["name"] for x in rows(page)]
    # each .grad follows its owner
    assert names.index("x.grad") == names.index("x") + 1
    page.click('#names .names-row[data-name="model[0].weight.grad"] button')
    assert selected(page) == w["tensor"]
    assert box_in_view(page, w["tensor"])
    assert "model[0].weight" in page.locator("#inspector").inner_text()
    # the step that accumulated x.grad marks it as changed there
    acc = page.evaluate("""(id) => document.querySelector('[data-gs-player]').gsPlayer.player
        .model.trace.events.find((e) => e.kind === 'accumulate' && e.tensor === id).seq""", owner["tensor"])
    go_to(page, acc)
    assert row(page, "x.grad")["changed"]
    assert page.locator('#names .names-row[data-name="x.grad"] .names-chip').inner_text() \
        == STRINGS["en"]["names_grad_changed"]


def test_a_name_is_reached_and_picked_with_the_keyboard(page):
    open_program(page, TRAINING)
    page.click("#step-last")
    button = page.locator('#names .names-row[data-name="loss"] button')
    button.focus()
    page.keyboard.press("Enter")
    target = row(page, "loss")["tensor"]
    assert selected(page) == target
    # the list is drawn afresh after the pick: the name keeps the focus, and Tab goes on
    assert page.evaluate("() => document.activeElement.closest('[data-name]').dataset.name") == "loss"
    assert button.get_attribute("aria-pressed") == "true"
    page.keyboard.press("Tab")
    assert page.evaluate("() => document.activeElement.closest('[data-name]')?.dataset.name") != "loss"
    pick = page.locator('#names .names-row[data-name="loss"] button')
    assert pick.get_attribute("title") == STRINGS["en"]["names_pick"].format(name="loss", box="loss₃")
    # what assistive technology says: the name, in words, and the box
    said = page.evaluate("""() => { const b = document.querySelector(
        '#names .names-row[data-name="loss"] button');
        return Array.from(b.childNodes).filter((n) => !(n.getAttribute && n.getAttribute('aria-hidden')))
          .map((n) => n.textContent).join('').replace(/\\s+/g, ' ').trim(); }""")
    assert said == "loss refers to loss₃", said


@pytest.mark.parametrize("example", EXAMPLES, ids=lambda p: p.stem)
def test_the_seed_examples_list_their_names(page, example):
    source = example.read_text(encoding="utf-8")
    open_program(page, source)
    page.click("#step-last")
    shown = rows(page)
    assert shown, "no names at the last step"
    words = set(re.findall(r"[A-Za-z_]\w*", source))
    for r in shown:
        # every name is the program's: its variable is written in the program
        root = re.match(r"[A-Za-z_]\w*", r["name"])
        assert root and root.group(0) in words, r
        assert r["shown"].startswith(r["name"] + " → ")
    present = page.evaluate("""() => Object.keys(document.querySelector('[data-gs-player]')
        .gsPlayer.player.model.state.tensors)""")
    assert all(r["tensor"] in present for r in shown)
    first = shown[0]
    page.click(f'#names .names-row[data-name="{first["name"]}"] button')
    assert selected(page) == first["tensor"]


def test_the_seed_loop_example_shows_each_rebinding_of_y(page):
    open_program(page, (ROOT / "app" / "examples" / "04-vjp-loop.py").read_text("utf-8"))
    ys = made(page, "y")
    assert len(ys) >= 5
    for prev, m in zip(ys, ys[1:]):
        go_to(page, m["seq"])
        r = row(page, "y")
        assert (r["label"], r["was"], r["changed"]) == (m["name"], prev["name"], True)


@pytest.mark.parametrize("size", [(1440, 900), (1280, 720)], ids=lambda s: f"{s[0]}x{s[1]}")
@pytest.mark.parametrize("lang", ["en", "zh"])
def test_the_panel_reads_in_both_languages_and_sizes(page, lang, size):
    page.set_viewport_size({"width": size[0], "height": size[1]})
    open_program(page, RNN_LOOP, lang)
    hs = made(page, "h")
    go_to(page, hs[2]["seq"])
    S = STRINGS[lang]
    assert page.locator("#names-title").inner_text().strip().lower() == S["names"].lower()
    chip = page.locator('#names .names-row[data-name="h"] .names-chip')
    assert chip.inner_text() == S["names_rebound"]
    page.locator("#names").scroll_into_view_if_needed()
    assert page.locator('#names .names-row[data-name="h"]').is_visible()
    # nothing in a row is cut off
    cut = page.evaluate("""() => Math.max(...Array.from(document.querySelectorAll('#names .names-row'))
        .map((li) => li.scrollWidth - li.clientWidth))""")
    assert cut <= 1, cut
    shoot(page, f"names-rnn-{lang}-{size[0]}x{size[1]}")


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_presenter_mode_shows_the_names_large(page, lang):
    page.set_viewport_size({"width": 1280, "height": 720})
    open_program(page, TRAINING, lang, "&presenter=1")
    losses = made(page, "loss")
    go_to(page, losses[2]["seq"])
    assert page.evaluate("() => document.body.classList.contains('is-presenter')")
    page.locator("#names").scroll_into_view_if_needed()
    assert page.locator('#names .names-row[data-name="loss"]').is_visible()
    # a projector needs the names at 16 px or more on screen (the side column is zoomed)
    px = page.evaluate("""() => {
        const el = document.querySelector('#names .names-name');
        const zoom = Number(getComputedStyle(el.closest('.pane-side')).zoom || 1);
        return parseFloat(getComputedStyle(el).fontSize) * zoom; }""")
    assert px >= 16, px
    page.click('#names .names-row[data-name="loss"] button')
    assert box_in_view(page, losses[2]["id"])
    shoot(page, f"names-presenter-{lang}-1280x720")


def test_the_exported_file_has_the_panel(browser, tmp_path):
    src = tmp_path / "rnn.py"
    src.write_text(RNN_LOOP, encoding="utf-8")
    out = tmp_path / "rnn.html"
    done = subprocess.run([sys.executable, "-m", "gradstep", "export", str(src), "-o", str(out)],
                          capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    ctx = browser.new_context(viewport={"width": 1440, "height": 900})
    try:
        page = ctx.new_page()
        problems: list[str] = []
        page.on("pageerror", lambda e: problems.append(str(e)))
        page.goto(out.as_uri())
        page.wait_for_selector("[data-gs-player][data-runs='1']", timeout=15000)
        hs = made(page, "h")
        go_to(page, hs[1]["seq"])
        r = row(page, "h")
        assert (r["label"], r["was"], r["changed"]) == ("h₃", "h₂", True)
        page.click('#names .names-row[data-name="h"] button')
        assert selected(page) == hs[1]["id"]
        assert problems == []
    finally:
        ctx.close()
