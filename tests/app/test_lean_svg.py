"""The page's SVG is lean (no per-box link or title, one font family) and still safe; the
descriptions those links carried come as `nodes[id].tip`, outside the layout cache's key."""
from __future__ import annotations

import xml.etree.ElementTree as ET

from gradstep.app.services.cache import LruCache
from gradstep.app.services.graph import Graph
from gradstep.app.services.layout import lay_out
from gradstep.app.services.layout_reuse import lay_out_reusing

SVG = "{http://www.w3.org/2000/svg}"


def chain(first: str, tip: str) -> Graph:
    g = Graph()
    g.add_node(first, "leaf", "<script>alert(1)</script>", "(2,)", tip)
    g.add_node("n1", "accumulate", "AccumulateGrad", tooltip="AccumulateGrad · grad += incoming")
    g.add_node("n2", "op", "MulBackward0", tooltip='MulBackward0 · <a href="javascript:x">')
    g.add_edge(first, "n1", "variable")
    g.add_edge("n1", "n2", "next")
    g.add_edge("n1", "n2", "next")          # a counted edge has a text label of its own
    return g


def test_the_page_svg_has_no_links_titles_or_active_content():
    layout = lay_out(chain("t0", 'x: "quoted" <b>tip</b> onload=alert(1)'))
    svg = layout["svg"]
    root = ET.fromstring(svg)          # still well-formed XML
    tags = {el.tag.removeprefix(SVG) for el in root.iter()}
    assert tags <= {"svg", "g", "path", "polygon", "polyline", "ellipse", "text"}, tags
    assert "a" not in tags and "title" not in tags
    assert "<script" not in svg and "foreignObject" not in svg and "javascript:" not in svg
    assert not [el for el in root.iter() for k in el.attrib if k.lower().startswith("on")]
    assert "xlink:title" not in svg and "tooltip" not in svg
    # the program's text stays text: the label is escaped, never markup
    assert "&lt;script&gt;alert(1)&lt;/script&gt;" in svg
    # one font family, on the root, instead of one per label
    assert root.get("font-family") == "Helvetica,Arial,sans-serif"
    assert all("font-family" not in el.attrib for el in root.iter(f"{SVG}text"))
    # the ids the page looks boxes and arrows up by are all there
    ids = {el.get("id") for el in root.iter(f"{SVG}g")}
    assert {"t0", "n1", "n2", "e_t0_n1", "e_n1_n2"} <= ids


def test_tips_are_data_in_the_answer():
    layout = lay_out(chain("t0", "x: torch.float32(2,), requires_grad=True"))
    assert layout["nodes"]["t0"]["tip"] == "x: torch.float32(2,), requires_grad=True"
    assert layout["nodes"]["n2"]["tip"] == 'MulBackward0 · <a href="javascript:x">'
    assert layout["nodes"]["n1"]["tip"] == "AccumulateGrad · grad += incoming"


def test_the_cache_key_does_not_depend_on_tips():
    cache = LruCache(4)
    first = lay_out_reusing(chain("t0", "x: first description"), cache=cache)
    second = lay_out_reusing(chain("t5", "x: another description"), cache=cache)
    assert len(cache) == 1             # one layout: the second graph reused it
    assert first["nodes"]["t0"]["tip"] == "x: first description"
    assert second["nodes"]["t5"]["tip"] == "x: another description"
    assert 'id="t5"' in second["svg"] and 'id="t0"' not in second["svg"]
