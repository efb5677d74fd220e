"""A big picture parsed a piece at a time (static/js/graph/svg_parse.js) is the same picture
as one parsed in one go, and the page draws it: every box of a 2,000-box run is in the
picture, only those near the view are in the page, and the exported file has them all."""
from __future__ import annotations

from urllib.parse import quote

import pytest

pytestmark = pytest.mark.browser

# about 2,000 boxes, as in test_graph_big.py
CHAIN = ("import torch\nx = torch.tensor([1.0, 2.0], requires_grad=True)\ny = x\n"
         "for i in range(998):\n    y = y * 1.001\ny.sum().backward()\nprint(x.grad)\n")

# a small picture with module frames (clusters) and a compact picture of module boxes
MLP = """import torch
import torch.nn as nn
torch.manual_seed(0)
model = nn.Sequential(nn.Linear(4, 8), nn.ReLU(), nn.Linear(8, 1))
loss = nn.MSELoss()(model(torch.randn(16, 4)), torch.randn(16, 1))
loss.backward()
"""

# Both ways, for every picture of a run (the run's own, its views, their compact ones);
# `piece` groups a piece, small enough here that a small picture is cut too.
SAME = """async ([code, piece]) => {
  const S = await import('/static/js/graph/svg_parse.js');
  const response = await fetch('/api/run', {method: 'POST',
    headers: {'Content-Type': 'application/json'}, body: JSON.stringify({code})});
  const layout = (await response.json()).layout;
  const pictures = [layout, ...(layout.views || [])].flatMap((p) => (p.compact ? [p, p.compact] : [p]));
  const out = [];
  for (const p of pictures) {
    const whole = S.parseSvg(p.svg);
    const pieces = await S.parseSvgInChunks(p.svg, piece);
    out.push({same: whole.outerHTML === pieces.outerHTML, owned: pieces.ownerDocument === document,
              nodes: pieces.querySelectorAll('g.node').length, clusters: pieces.querySelectorAll('g.cluster').length,
              expected: Object.keys(p.nodes).length, scene: pieces.querySelector(':scope > g.graph') !== null});
  }
  return out;
}"""


@pytest.mark.parametrize("code, piece", [(CHAIN, 120), (MLP, 2), (MLP, 1)])
def test_a_picture_parsed_in_pieces_is_the_picture_parsed_whole(page, code, piece):
    page.goto(f"{page.base}/")
    page.wait_for_selector("body.is-ready", timeout=60000)
    pictures = page.evaluate(SAME, [code, piece])
    assert pictures
    for p in pictures:
        assert p["same"] and p["owned"] and p["scene"], p
        assert p["nodes"] == p["expected"] > 0
    if code is MLP:
        assert any(p["clusters"] for p in pictures)     # frames were cut around, not through


def test_a_big_run_draws_every_box_and_exports_them_all(page):
    page.goto(f"{page.base}/?code={quote(CHAIN)}")
    page.wait_for_selector("body.is-ready", timeout=60000)
    page.wait_for_selector("#graph svg", timeout=180000)
    seen = page.evaluate("""async () => {
      const S = await import('/static/js/graph/svg_parse.js');
      const c = document.querySelector('[data-gs-player]').gsPlayer;
      const drawn = S.parseSvg(c.player.model.answer.layout.svg);
      const ids = Object.keys(c.player.model.answer.layout.nodes);
      const inPage = [...document.querySelectorAll('#graph .node')].map((n) => n.id);
      const whole = c.svg;
      return {ids, inPage, whole: [...whole.querySelectorAll('g.node')].map((n) => n.id),
              order: [...drawn.querySelectorAll('g.node, g.edge')].map((n) => n.id),
              wholeOrder: [...whole.querySelectorAll('g.node, g.edge')].map((n) => n.id),
              edges: c.player.model.answer.layout.edges.length,
              wholeEdges: whole.querySelectorAll('g.edge').length};
    }""")
    assert len(seen["ids"]) >= 1990
    # a screenful in the page, the rest out of it until the view comes near
    assert 0 < len(seen["inPage"]) < len(seen["ids"]) / 4
    assert set(seen["inPage"]) <= set(seen["ids"])
    # the copy for a file has every box and arrow, each once, in the server's drawing order
    assert sorted(seen["whole"]) == sorted(seen["ids"])
    assert seen["wholeEdges"] == seen["edges"]
    assert seen["wholeOrder"] == seen["order"]
    with page.expect_download() as download:
        page.click("#export")
        page.click("#export-svg")
    text = download.value.path().read_text()
    assert text.count('class="node') == len(seen["ids"])
