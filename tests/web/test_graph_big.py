"""A 2,000-box graph in real Chromium: drawn near the view only, stepped to the end of its
backward pass with the working box in view, the full value in a box's tooltip, and a second
run that leaves nothing of the first attached or listening. Speed is bench/bench_graph.py's."""
from __future__ import annotations

from urllib.parse import quote

import pytest

pytestmark = pytest.mark.browser

# about 2,000 boxes: the leaf, its AccumulateGrad, 998 products and their results, the sum
CHAIN = ("import torch\nx = torch.tensor([1.0, 2.0], requires_grad=True)\ny = x\n"
         "for i in range(998):\n    y = y * 1.001\ny.sum().backward()\nprint(x.grad)\n")

DRAWN = """() => {
  const pane = document.querySelector('#graph').getBoundingClientRect();
  // boxes far from the view are out of the page (graph/culling.js): count them in the layout
  const all = Object.keys(document.querySelector('[data-gs-player]').gsPlayer.player.model.answer.layout.nodes);
  const shown = [...document.querySelectorAll('#graph .node')].filter((n) => n.getClientRects().length);
  const inPane = (r) => r.width > 0 && r.left >= pane.left - 1 && r.right <= pane.right + 1
    && r.top >= pane.top - 1 && r.bottom <= pane.bottom + 1;
  const active = document.querySelector('#graph .node.is-active');
  return {all: all.length, shown: shown.length,
          active: active ? {id: active.id, inPane: inPane(active.getBoundingClientRect())} : null};
}"""


def player(pg, js: str):
    return pg.evaluate(f"() => document.querySelector('[data-gs-player]').gsPlayer.{js}")


@pytest.fixture
def big(page):
    page.goto(f"{page.base}/?code={quote(CHAIN)}")
    page.wait_for_selector("body.is-ready", timeout=60000)
    page.wait_for_selector("#graph svg", timeout=180000)
    return page


def test_a_2000_box_chain_draws_and_steps_to_the_end_of_backward(big):
    seen = big.evaluate(DRAWN)
    assert seen["all"] >= 1990
    # only what is near the view is drawn: a screenful, not two thousand boxes
    assert 0 < seen["shown"] < seen["all"] / 4
    applies = big.evaluate("""() => document.querySelector('[data-gs-player]').gsPlayer.player
        .model.trace.events.filter((e) => e.kind === 'node_apply').map((e) => e.seq)""")
    assert len(applies) >= 999
    # from the middle of the backward pass on to its last node, by the player and the keys
    player(big, f"player.go({applies[len(applies) // 2]})")
    assert big.evaluate(DRAWN)["active"]["inPane"]
    player(big, f"player.go({applies[-1] - 3})")
    big.focus("#graph")
    for _ in range(3):
        big.keyboard.press("ArrowRight")
    assert int(big.get_attribute("#step-label", "data-step")) == applies[-1] + 1
    seen = big.evaluate(DRAWN)
    assert seen["active"] and seen["active"]["inPane"], seen
    assert seen["shown"] < seen["all"] / 4
    # Fit shows the whole chain and says its words are too small to read; the readable size
    # it offers keeps the working box in view and still draws only a screenful
    big.click("#zoom-fit")
    assert "px" in big.inner_text("#graph-scale")
    big.click("#zoom-readable")
    assert big.locator("#graph-scale").count() == 0
    seen = big.evaluate(DRAWN)
    assert seen["active"]["inPane"] and seen["shown"] < seen["all"] / 4
    # one step on, the gradient reaches the leaf beside it: its tooltip has the whole value
    # and gradient (1.001 ** 998 each)
    big.focus("#graph")
    big.keyboard.press("ArrowRight")
    assert big.evaluate(DRAWN)["active"]["inPane"]
    leaf = big.locator("#graph .node.gs-leaf").first
    assert leaf.is_visible()
    leaf.hover()
    tip = big.locator("#graph-tip")
    assert tip.is_visible()
    text = tip.inner_text()
    assert "[1, 2]" in text and "2.71" in text, text
    # keyboard focus shows the same, and the box is named by what it shows and its description
    leaf.focus()
    assert tip.is_visible() and "2.71" in tip.inner_text()
    assert "requires_grad=True" in leaf.get_attribute("aria-label")


def test_panning_draws_what_comes_into_view(big):
    player(big, "player.go(0)")
    big.click("#zoom-fit")
    big.click("#zoom-readable")
    first = big.evaluate("""() => [...document.querySelectorAll('#graph .node')]
        .filter((n) => n.getClientRects().length).map((n) => n.id)""")
    # the chain runs down and to the right (about 74 by 60 units a link): drag along it
    box = big.locator("#graph").bounding_box()
    transform = "() => document.querySelector('#graph svg').style.transform"
    before = big.evaluate(transform)
    for _ in range(6):      # from the empty corner left of the chain, up and to the left
        x, y = box["x"] + 60, box["y"] + box["height"] - 40
        big.mouse.move(x, y)
        big.mouse.down()
        big.mouse.move(x - 1.24 * 300, y - 300, steps=5)
        big.mouse.up()
    assert big.evaluate(transform) != before
    later = big.evaluate("""() => [...document.querySelectorAll('#graph .node')]
        .filter((n) => n.getClientRects().length).map((n) => n.id)""")
    assert later and set(later) != set(first)
    # what is drawn after panning is what is on screen: some box lies inside the pane
    assert big.evaluate("""() => { const p = document.querySelector('#graph').getBoundingClientRect();
        return [...document.querySelectorAll('#graph .node')].some((n) => { const r = n.getBoundingClientRect();
          return n.getClientRects().length && r.top >= p.top && r.bottom <= p.bottom; }); }""")


def test_a_second_run_frees_the_first(big):
    old = big.evaluate_handle("() => document.querySelector('#graph svg')")
    before = int(big.get_attribute("[data-gs-player]", "data-runs"))
    big.click("#run")
    big.wait_for_selector(f'[data-gs-player][data-runs="{before + 1}"]', state="attached",
                          timeout=180000)
    assert big.locator("#graph svg").count() == 1
    assert big.locator("#graph .graph-tip").count() == 1
    assert old.evaluate("(svg) => svg.isConnected") is False
    old_transform = old.evaluate("(svg) => svg.style.transform")
    box = big.locator("#graph").bounding_box()
    big.mouse.move(box["x"] + box["width"] / 2, box["y"] + box["height"] / 2)
    big.mouse.wheel(0, -200)
    big.wait_for_timeout(100)
    assert old.evaluate("(svg) => svg.style.transform") == old_transform
