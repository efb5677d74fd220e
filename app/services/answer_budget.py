"""The answer's size budget: the trace and the graph's pictures together stay under it.

The sandbox caps the trace (2 MB by default); the pictures are laid out afterwards and would
come on top of it without a bound: a 2,000-box graph is about 2.4 MB of SVG, and a loop may
be drawn on up to a dozen pictures. `PictureBudget` gives the pictures what the trace and
the result left of `GRADSTEP_ANSWER_MAX_BYTES`, and is asked before each layout, so that a
picture that would not fit is never laid out (the layout is the expensive part).

Which pictures go: the ones the learner meets last. Pictures are offered in the order the
run shows them, and the first one that does not fit ends the drawing: it and every later one
are left out. The first picture is what the page opens on and is kept whenever it fits; a
loop's later pictures are its later iterations, which the page reaches only by stepping
through the earlier ones, and keeping a smaller late picture while dropping an earlier one
would leave holes in the middle of the run. A left-out picture is replaced by an empty one
(`dropped: true`), so that every stretch of the run still names a picture and the page can
say, in that stretch, why it is not drawn.

Example:
    >>> from gradstep.app.services.graph import Graph
    >>> g = Graph()
    >>> _ = g.add_node("t0", "leaf", "x", "(3,)")
    >>> budget = PictureBudget(max_bytes=10_000, used=9_500)
    >>> budget.admits(g)
    False
    >>> budget.note()
    'The graph is not drawn: its picture would make the answer larger than 0.01 MB.'
"""
from __future__ import annotations

import json
from dataclasses import dataclass

from gradstep.app.services.graph import Graph

ANSWER_MAX_BYTES = 4_000_000    # the trace's 2 MB cap and as much again for the pictures

# Graphviz writes about 600 to 720 bytes of SVG and geometry per box and per arrow (a box's
# group, title, link, path and text; an arrow's path and head) with the boxes' text on top.
# On the golden traces and chains of up to 600 ops this estimate came out 1.0 to 1.2 times
# the picture's bytes: it errs towards leaving out a picture that would just have fit, and a
# picture it underestimates is still checked (and left out) once laid out.
BYTES_PER_ITEM = 620
BYTES_PER_PICTURE = 1_000       # the svg element, its viewBox and the scene's group


def estimate(graph: Graph) -> int:
    """About the bytes `graph`'s picture adds to an answer, before it is laid out."""
    text = sum(len(n.label) + len(n.sublabel) + len(n.tooltip) for n in graph.nodes.values())
    return (BYTES_PER_PICTURE + BYTES_PER_ITEM * (len(graph.nodes) + len(graph.edges))
            + text)


def picture_bytes(picture: dict) -> int:
    """The bytes a laid-out picture takes in the answer's JSON."""
    return len(json.dumps(picture, ensure_ascii=False, separators=(",", ":")).encode("utf-8",
                                                                                     "replace"))


def placeholder(width: float, height: float) -> dict:
    """An empty picture standing for one left out: no boxes, the same size as the first."""
    return {"engine": "dot", "dropped": True, "nodes": {}, "edges": [], "width": width,
            "height": height,
            "svg": f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {width} {height}">'
                   "</svg>"}


class OverBudget(ValueError):
    """Not even the first picture fits: the answer carries no layout."""


@dataclass
class PictureBudget:
    """The room the pictures of one answer may take: `max_bytes` less what is `used`."""

    max_bytes: int
    used: int = 0
    offered: int = 0      # pictures asked about
    dropped: int = 0      # of which left out
    closed: bool = False  # a picture was left out: so are all later ones

    def admits(self, graph: Graph) -> bool:
        """Whether `graph`'s picture may be laid out; a refusal counts it as left out."""
        self.offered += 1
        if not self.closed and self.used + estimate(graph) <= self.max_bytes:
            return True
        self.closed = True
        self.dropped += 1
        return False

    def fits(self, graph: Graph) -> bool:
        """Whether `graph`'s picture would be admitted, without counting the question."""
        return not self.closed and self.used + estimate(graph) <= self.max_bytes

    def take(self, picture: dict) -> bool:
        """Charge a laid-out picture; False (and left out) when the estimate was short."""
        size = picture_bytes(picture)
        if self.used + size > self.max_bytes:
            self.closed = True
            self.dropped += 1
            return False
        self.used += size
        return True

    def charge(self, picture: dict) -> None:
        """Charge a placeholder (it is small, and always kept)."""
        self.used += picture_bytes(picture)

    def summary(self) -> dict | None:
        """The answer's `layout_budget` when pictures were left out, else None."""
        if not self.dropped:
            return None
        return {"max_bytes": self.max_bytes, "pictures": self.offered,
                "drawn": self.offered - self.dropped}

    def note(self) -> str:
        """The answer's `layout_note`: what was left out and why, in the learner's terms."""
        size = f"{self.max_bytes / 1e6:g} MB"
        if self.dropped >= self.offered:
            return f"The graph is not drawn: its picture would make the answer larger than {size}."
        return (f"{self.dropped} of the run's {self.offered} pictures are not drawn (the later "
                f"iterations): they would make the answer larger than {size}.")
