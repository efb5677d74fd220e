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


# Active content an SVG could smuggle in, each way HTML's tokenizer starts an attribute: after a
# space, a slash, a quote; elements that run or embed; animations that set a link's target.
# None of it may reach the page.
HOSTILE = """<svg xmlns="http://www.w3.org/2000/svg"><g class="graph">
<g id="a" class="node"/onclick="x()"><text>a</text></g>
<g id="b" class="node" data-k="1"onmouseover="x()" style="fill:red"><text>b</text></g>
<g id="c" class="node"><a href="javascript:x()"><text>c</text></a><a xlink:href="#ok"><text>d</text></a></g>
<g id="d" class="node"><script>x()</script><foreignObject><div>e</div></foreignObject></g>
<g id="f" class="node"><a><set attributeName="href" to="javascript:x()"/><animate attributeName="href" values="javascript:x()"/><text>f</text></a></g>
<g id="e" class="node"><text>ones only: style href</text></g>
</g></svg>"""

CLEANED = """async ([svg, piece]) => {
  const S = await import('/static/js/graph/svg_parse.js');
  return [S.parseSvg(svg), await S.parseSvgInChunks(svg, piece)].map((el) => ({
    active: [...el.querySelectorAll('*')].flatMap((x) => x.getAttributeNames()
      .filter((n) => n.startsWith('on') || n === 'style' || (n.endsWith('href') && !x.getAttribute(n).startsWith('#')))),
    elements: el.querySelectorAll('script, foreignObject, set, animate').length,
    local: [...el.querySelectorAll('*')].filter((x) => x.getAttributeNames()
      .some((n) => n.endsWith('href') && x.getAttribute(n) === '#ok')).length,
    nodes: el.querySelectorAll('g.node').length,
    text: el.querySelector('#e').textContent}));
}"""


@pytest.mark.parametrize("piece", [1, 2])
def test_active_content_never_reaches_the_picture(page, piece):
    page.goto(f"{page.base}/")
    page.wait_for_selector("body.is-ready", timeout=60000)
    for got in page.evaluate(CLEANED, [HOSTILE, piece]):
        assert got["active"] == [] and got["elements"] == 0, got
        assert got["nodes"] == 6 and got["local"] == 1 and got["text"] == "ones only: style href"
    # the page's CSP refuses the handlers and the style as the parser meets them, before they
    # are removed: those reports are expected here, and nothing else may go wrong
    page.problems[:] = [p for p in page.problems
                        if "violates the following Content Security Policy" not in p]


# The answer as the page receives it (fetched and parsed in a worker, sent in slices) is the
# answer the server sent, key for key and in the same order.
SAME_ANSWER = """async (code) => {
  const api = await import('/static/js/api.js');
  const sliced = await api.run(code, 'en', new AbortController().signal);
  const response = await fetch('/api/run', {method: 'POST',
    headers: {'Content-Type': 'application/json'}, body: JSON.stringify({code, lang: 'en'})});
  const whole = await response.json();
  return {same: JSON.stringify(sliced) === JSON.stringify(whole),
          events: whole.trace.events.length, nodes: Object.keys(whole.layout.nodes).length};
}"""


def test_an_answer_in_slices_is_the_answer_whole(page):
    page.goto(f"{page.base}/")
    page.wait_for_selector("body.is-ready", timeout=60000)
    got = page.evaluate(SAME_ANSWER, CHAIN)
    assert got["same"] and got["events"] > 1000 and got["nodes"] > 1000, got


def test_a_stopped_answer_in_the_worker_rejects_as_aborted(page):
    page.goto(f"{page.base}/")
    page.wait_for_selector("body.is-ready", timeout=60000)
    name = page.evaluate("""async (code) => {
      const api = await import('/static/js/api.js');
      const c = new AbortController();
      const p = api.run(code, 'en', c.signal);
      c.abort();
      try { await p; return 'answered'; } catch (err) { return err.name; }
    }""", CHAIN)
    assert name == "AbortError"
