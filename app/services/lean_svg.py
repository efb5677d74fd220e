"""The page's copy of a Graphviz SVG, without what only a standalone file needs.

Graphviz writes, for every box and arrow, a `<title>` with its DOT name, and (when the DOT
gives a tooltip) an `<a xlink:title=…>` around the box; every `<text>` repeats the font
family. At 2,000 boxes that is about half of a 2 MB SVG, which the page then parses and
throws away: the page has its own tooltip, fed by the layout's `nodes[id].tip`, and its own
font rule. The layout for the page is therefore drawn from DOT without tooltips (no links)
and cleaned here. A downloaded picture must stand alone: `gradstep render` draws the full
SVG, and `/api/render`, which reuses the run's layout, puts each box's description back as
its `<title>` (`titled_svg`); the root's font family is there either way.

Example:
    >>> lean_svg('<svg><g id="t0">\\n<title>t0</title>\\n'
    ...          '<text font-family="Helvetica">x</text></g></svg>')
    '<svg font-family="Helvetica,Arial,sans-serif"><g id="t0">\\n<text>x</text></g></svg>'
"""
from __future__ import annotations

import re
from html import escape

FONT = "Helvetica,Arial,sans-serif"

_TITLE = re.compile(r"<title>[^<]*</title>\n?")
_FONT_FAMILY = re.compile(r' font-family="[^"]*"')
_SVG_OPEN = re.compile(r"<svg\b")


def lean_svg(svg: str) -> str:
    """Drop every `<title>` and per-text font family; the root `<svg>` names the font once,
    so the picture still draws in Helvetica's widths, which Graphviz measured."""
    svg = _FONT_FAMILY.sub("", _TITLE.sub("", svg))
    return _SVG_OPEN.sub(f'<svg font-family="{FONT}"', svg, count=1)


_NODE_OPEN = re.compile(r'(<g id="([^"]+)" class="node[^"]*">\n?)')


def titled_svg(layout: dict) -> str:
    """The lean SVG of a layout with each box's description (`nodes[id].tip`) as its
    `<title>`, which SVG viewers show on hover: the picture as a file of its own."""
    nodes = layout.get("nodes", {})

    def titled(match: re.Match) -> str:
        tip = (nodes.get(match.group(2)) or {}).get("tip")
        return match.group(1) + (f"<title>{escape(tip, quote=False)}</title>\n" if tip else "")

    return _NODE_OPEN.sub(titled, layout["svg"])
