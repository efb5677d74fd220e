"""The graph stays readable in real Chromium: no two text labels overlap, nothing is cut at the
pane's edge after Fit, Fit never makes text smaller than 11 px, and the numbers are in the
boxes. Geometry is read from the page (bounding boxes of every `<text>` in `#graph svg`), at
the steps where the most is drawn: a gradient flowing, an AccumulateGrad adding, the end.
"""
from __future__ import annotations

from pathlib import Path
from urllib.parse import quote

import pytest

pytestmark = pytest.mark.browser

ROOT = Path(__file__).resolve().parents[2]
EXAMPLES = sorted((ROOT / "app" / "examples").glob("*.py"))
# Programs whose graph fits the pane at a readable size: the page's first example and the
# accumulation program. Bigger graphs (a loop unrolled, a Jacobian row by row) cannot be read
# whole in a 650 px pane; for them Fit frames the working region, and labels still never
# overlap and never shrink below 11 px.
WHOLE = ("01-", "03-")

MLP = """import torch
import torch.nn as nn
torch.manual_seed(0)
model = nn.Sequential(nn.Linear(4, 8), nn.ReLU(), nn.Linear(8, 1))
x = torch.randn(16, 4)
y = torch.randn(16, 1)
opt = torch.optim.SGD(model.parameters(), lr=0.1)
loss_fn = nn.MSELoss()
for epoch in range(50):
    opt.zero_grad()
    loss = loss_fn(model(x), y)
    loss.backward()
    opt.step()
print(loss.item())
"""

SEED = """import torch
x = torch.tensor([1.0, 2.0, 3.0], requires_grad=True)
y = x * 2
z = (y * y).mean()
z.backward()
print(x.grad)
"""

# Every visible label of the graph with its box on screen, and the pane's box.
TEXTS = """() => {
  const pane = document.querySelector('#graph').getBoundingClientRect();
  const texts = [...document.querySelectorAll('#graph svg text')]
    .filter((t) => t.textContent.trim() && t.getClientRects().length
      && getComputedStyle(t).display !== 'none')
    .map((t) => { const r = t.getBoundingClientRect();
      return {text: t.textContent, x: r.left, y: r.top, w: r.width, h: r.height,
              font: parseFloat(getComputedStyle(t).fontSize)}; });
  return {pane: {x: pane.left, y: pane.top, w: pane.width, h: pane.height}, texts};
}"""


def open_program(pg, code: str):
    pg.goto(f"{pg.base}/?code={quote(code)}")
    pg.wait_for_selector("body.is-ready", timeout=60000)
    pg.wait_for_selector("#graph svg", timeout=30000)


def seqs(pg, kind: str) -> list[int]:
    return pg.evaluate(f"""() => document.querySelector('[data-gs-player]').gsPlayer.player
        .model.trace.events.filter(e => e.kind === {kind!r}).map(e => e.seq)""")


def go(pg, seq: int):
    pg.evaluate(f"() => document.querySelector('[data-gs-player]').gsPlayer.player.go({seq})")


def fit(pg):
    """The readable framing: Fit, and where the whole picture's words went below 11 px, the
    note's "Readable size"."""
    pg.click("#zoom-fit")
    if pg.locator("#zoom-readable").count():
        pg.click("#zoom-readable")
    pg.wait_for_timeout(50)


def overlapping(texts: list[dict], slack: float = 0.5) -> list[tuple[str, str]]:
    bad = []
    for i, a in enumerate(texts):
        for b in texts[i + 1:]:
            if (a["x"] + slack < b["x"] + b["w"] and b["x"] + slack < a["x"] + a["w"]
                    and a["y"] + slack < b["y"] + b["h"] and b["y"] + slack < a["y"] + a["h"]):
                bad.append((a["text"], b["text"]))
    return bad


def outside(texts: list[dict], pane: dict, slack: float = 1.0) -> list[str]:
    return [t["text"] for t in texts
            if t["x"] < pane["x"] - slack or t["y"] < pane["y"] - slack
            or t["x"] + t["w"] > pane["x"] + pane["w"] + slack
            or t["y"] + t["h"] > pane["y"] + pane["h"] + slack]


# The working box (outlined) on screen after Fit, or null when the step has none.
WORKING = """() => {
  const el = document.querySelector('#graph .node.is-active');
  if (!el) return null;
  const r = el.getBoundingClientRect();
  return {x: r.left, y: r.top, w: r.width, h: r.height, text: el.id};
}"""


def check_readable(pg, whole: bool = True):
    """At the steps that draw the most, after Fit: no overlaps, >= 11 px, inside the pane;
    the working box, when the step has one, is wholly in the pane."""
    steps = (seqs(pg, "node_apply")[:1] + seqs(pg, "accumulate")[:1]
             + [len(seqs(pg, "end")) and seqs(pg, "end")[0]])
    for seq in steps:
        go(pg, seq)
        fit(pg)
        seen = pg.evaluate(TEXTS)
        texts = seen["texts"]
        assert texts, "the graph has no labels"
        assert overlapping(texts) == [], f"step {seq + 1}"
        small = [(t["text"], round(t["font"], 1)) for t in texts if t["font"] < 11 * 0.9]
        assert small == [], f"step {seq + 1}: text below readable size"
        # a glyph box is taller than the font's size; 11 px text gives at least 11 px boxes
        assert min(t["h"] for t in texts) >= 11, f"step {seq + 1}"
        if whole:
            assert outside(texts, seen["pane"]) == [], f"step {seq + 1}"
        working = pg.evaluate(WORKING)
        if working:
            assert working["w"] > 0 and outside([working], seen["pane"]) == [], f"step {seq + 1}"


@pytest.mark.parametrize("path", EXAMPLES, ids=[p.stem for p in EXAMPLES])
def test_examples_are_readable_after_fit(page, path):
    open_program(page, path.read_text())
    check_readable(page, whole=path.name.startswith(WHOLE))


def test_fifty_epoch_mlp_is_readable_after_fit(page):
    # the compact picture (library modules as boxes) fits the pane whole
    open_program(page, MLP)
    assert page.locator("#graph .gs-module").count() >= 3
    check_readable(page, whole=True)
    # at its last step too, where the loop's last iteration is drawn
    page.click("#step-last")
    fit(page)
    seen = page.evaluate(TEXTS)
    assert outside(seen["texts"], seen["pane"]) == [] and overlapping(seen["texts"]) == []
    assert min(t["h"] for t in seen["texts"]) >= 11


def step_until(page, el, cls: str, most: int) -> None:
    """Step forward (→ on the graph) until `el` has the class `cls`, at most `most` steps."""
    page.focus("#graph")
    for _ in range(most):
        page.keyboard.press("ArrowRight")
        if cls in (el.get_attribute("class") or ""):
            break
    assert cls in el.get_attribute("class")


def test_a_step_inside_a_module_box_lights_the_box(page):
    open_program(page, MLP)
    box = page.locator('#graph .gs-module[data-group="g_model.5b.0.5d."]')
    step_until(page, box, "is-active", 80)
    assert page.locator("#graph .node.is-active").count() == 1


def test_values_and_grads_are_in_the_boxes(page):
    open_program(page, SEED)
    page.click("#step-last")
    rows = page.evaluate("""() => Object.fromEntries([...document.querySelectorAll(
        '#graph .node')].map((n) => [n.querySelector('title, text').textContent,
        [...n.querySelectorAll('.gs-row')].map((t) => t.textContent.trim())]))""")
    x_rows = next(v for k, v in rows.items() if v and v[0].startswith("data [1, 2, 3]"))
    # z = mean(4 x^2): dz/dx = 8x / 3
    assert x_rows == ["data [1, 2, 3]", "grad [2.67, 5.33, 8]"]
    assert any(v == ["data [2, 4, 6]"] for v in rows.values())
    # before backward, the leaf has no grad yet
    page.click("#step-first")
    go(page, seqs(page, "backward_begin")[0])
    assert "grad None" in page.inner_text("#graph")


def test_saved_tensors_show_freed_after_backward(page):
    open_program(page, SEED)
    go(page, seqs(page, "backward_begin")[0])
    saved = page.locator("#graph .gs-row-saved")
    assert saved.count() >= 2
    assert all(t.strip().startswith("saved: ") for t in saved.all_text_contents())
    go(page, seqs(page, "graph_freed")[0])
    assert all(t.strip().startswith("freed: ") for t in saved.all_text_contents())
    assert page.locator("#graph .gs-row-saved.is-freed-row").count() == saved.count()
    # the overlay can be hidden and shown again
    page.click("#view-saved")
    assert page.locator("#graph svg.hide-saved").count() == 1
    assert not saved.first.is_visible()
    page.click("#view-saved")
    assert saved.first.is_visible()


def test_tooltip_gives_the_full_value_on_focus(page):
    open_program(page, SEED)
    page.click("#step-last")
    box = page.locator("#graph .node.gs-leaf").first
    box.focus()
    tip = page.locator("#graph-tip")
    assert tip.is_visible()
    assert "1, 2, 3" in tip.inner_text() and "2.667" in tip.inner_text()
    page.keyboard.press("Tab")
    page.mouse.move(5, 5)
    box.hover()
    assert tip.is_visible()


def test_a_new_run_replaces_the_old_graph(page):
    open_program(page, SEED)
    old = page.evaluate_handle("() => document.querySelector('#graph svg')")
    before = int(page.get_attribute("[data-gs-player]", "data-runs"))
    page.click("#run")
    page.wait_for_selector(f'[data-gs-player][data-runs="{before + 1}"]', state="attached")
    assert page.locator("#graph svg").count() == 1
    assert page.locator("#graph .graph-tip").count() == 1
    assert old.evaluate("(svg) => svg.isConnected") is False
    # the old viewport no longer listens: a wheel over the pane moves only the new graph
    transform = "() => document.querySelector('#graph svg').style.transform"
    old_transform = old.evaluate("(svg) => svg.style.transform")
    new_transform = page.evaluate(transform)
    box = page.locator("#graph").bounding_box()
    page.mouse.move(box["x"] + box["width"] / 2, box["y"] + box["height"] / 2)
    page.mouse.wheel(0, -200)
    page.wait_for_timeout(100)
    assert old.evaluate("(svg) => svg.style.transform") == old_transform
    assert page.evaluate(transform) != new_transform


def test_fifty_epoch_mlp_shows_one_iteration_with_module_groups(page):
    open_program(page, MLP)
    page.click("#step-last")
    # one iteration is drawn, not fifty: the picker offers the iterations kept in detail
    assert page.locator("#iteration").is_visible()
    options = page.locator("#iteration option").all_text_contents()
    assert options[-1] == "iteration 50" and len(options) < 10
    assert page.input_value("#iteration") == str(len(options) - 1)
    assert page.locator("#graph .node").count() < 30
    titles = page.locator("#graph .gs-group-title").all_text_contents()
    assert {"model · Sequential", "model[0] · Linear(4 → 8)", "model[1] · ReLU",
            "model[2] · Linear(8 → 1)", "loss_fn · MSELoss"} <= set(titles)
    # choosing an iteration goes to its first step
    page.select_option("#iteration", "0")
    assert int(page.get_attribute("#step-label", "data-step")) == 1


def test_groups_fold_and_open_by_mouse_and_keyboard(page):
    open_program(page, MLP)
    page.click("#step-last")
    group = page.locator('#graph [data-group="g_model.5b.0.5d."]')
    # its linear map's box, drawn only when the module is open
    inside = page.locator("#graph .node:not([data-folded])", has_text="AddmmBackward0")
    modules = page.locator("#graph .gs-module")
    # the compact picture: the module is one box, a button that opens it
    assert modules.count() >= 3 and "gs-module" in group.get_attribute("class")
    assert group.get_attribute("aria-expanded") == "false"
    group.locator(".gs-group-title").click()
    # the full picture, that module open and the other library modules folded
    assert modules.count() == 0 and group.get_attribute("aria-expanded") == "true"
    assert inside.count() == 1 and inside.first.is_visible()
    assert page.locator("#graph .node[data-folded]").count() > 0
    assert page.locator('#graph [data-group="g_model.5b.2.5d."]').get_attribute(
        "aria-expanded") == "false"
    group.locator(".gs-group-title").click()
    # folded again, all the modules are: back to the compact picture
    assert modules.count() >= 3 and group.get_attribute("aria-expanded") == "false"
    assert inside.count() == 0
    # the keyboard: focus the box, Enter opens, Space folds, and the step stays put
    step = page.get_attribute("#step-label", "data-step")
    group.focus()
    page.keyboard.press("Enter")
    assert group.get_attribute("aria-expanded") == "true" and inside.count() == 1
    assert page.evaluate("() => document.activeElement.dataset.group") == "g_model.5b.0.5d."
    page.keyboard.press(" ")
    assert group.get_attribute("aria-expanded") == "false" and modules.count() >= 3
    assert page.get_attribute("#step-label", "data-step") == step


def test_a_folded_group_is_one_step(page):
    open_program(page, MLP)
    page.click("#step-first")
    group = page.locator('#graph [data-group="g_model"]')
    group.focus()
    page.keyboard.press("Enter")
    assert group.get_attribute("aria-expanded") == "false"
    # step until the work enters the folded model: the group lights up
    step_until(page, group, "is-working", 60)
    entered = int(page.get_attribute("#step-label", "data-step"))
    # one more step leaves it, however many ops ran inside
    page.keyboard.press("ArrowRight")
    left = int(page.get_attribute("#step-label", "data-step"))
    assert left > entered + 1
    assert "is-working" not in group.get_attribute("class")
    # opened again, its steps are back one by one
    group.focus()
    page.keyboard.press("Enter")
    assert group.get_attribute("aria-expanded") == "true"
    go(page, entered - 1)
    page.focus("#graph")
    page.keyboard.press("ArrowRight")
    assert int(page.get_attribute("#step-label", "data-step")) == entered + 1
