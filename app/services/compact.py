"""The compact picture: a big picture with each library module drawn as one box.

A training loop's iteration, drawn with every op inside `nn.Linear`, `nn.ReLU` and the loss,
is wider than the graph pane (a 4-8-1 MLP: about 990 × 630 points against a 650 px pane),
so Fit cannot show it whole at a readable size. Spacing does not help; hiding the modules the
learner did not write does. `folded_modules` picks those modules: each library module in the
picture that holds no other library module (so `model[0] · Linear(4 → 8)`, not the whole
`nn.Sequential` around it; an `nn.RNN`'s time steps are not modules, so the layer is one
box). `compact_graph` draws each as one box titled like its group, with the arrows from
outside ending on it; the page shows this picture while those groups are
folded and the full one once the learner opens one (docs/layout.md, the compact picture).

Example:
    >>> g = Graph(groups={"m": {"label": "m · ReLU", "parent": None, "user": False}})
    >>> for i, kind, group in (("t0", "leaf", ""), ("n1", "op", "m"), ("t1", "tensor", "m")):
    ...     g.add_node(i, kind, "x").group = group
    >>> _ = g.add_edge("t0", "n1", "next"); _ = g.add_edge("n1", "t1", "output")
    >>> folded = folded_modules(g)
    >>> folded
    {'m': ['n1', 't1']}
    >>> small = compact_graph(g, folded)
    >>> list(small.nodes), [e.id for e in small.edges.values()]
    (['t0', 'g_m'], ['e_t0_g_m'])
"""
from __future__ import annotations

import re

from gradstep.app.services.graph import GEdge, GNode, Graph

# A picture is drawn compact when it has more boxes than this (the page's old rule for
# starting library modules folded) or is larger than the pane shows at one pixel a point.
BIG = 40
PANE_PT = (640.0, 600.0)


def group_id(path: str) -> str:
    """The SVG id of a module's cluster (and of its box in the compact picture)."""
    return "g_" + re.sub(r"[^A-Za-z0-9_-]", lambda m: f".{ord(m.group()):x}.", path)


def _chain(path: str, groups: dict[str, dict]) -> list[str]:
    out = []
    while path and path in groups and path not in out:
        out.append(path)
        path = groups[path]["parent"]
    return out


def folded_modules(graph: Graph) -> dict[str, list[str]]:
    """The library modules drawn as one box: path -> the boxes inside, in drawing order."""
    present: set[str] = set()
    for node in graph.nodes.values():
        present.update(_chain(node.group, graph.groups))
    # a recurrent layer's time steps are parts of its call, not modules: the layer folds whole
    library = {p for p in present if not graph.groups[p]["user"]
               and not graph.groups[p].get("step")}
    around = {a for p in library for a in _chain(graph.groups[p]["parent"] or "", graph.groups)}
    innermost = library - around
    out: dict[str, list[str]] = {}
    for node in graph.nodes.values():
        hit = next((p for p in _chain(node.group, graph.groups) if p in innermost), None)
        if hit is not None:
            out.setdefault(hit, []).append(node.id)
    return out


def wants_compact(layout: dict, folded: dict[str, list[str]]) -> bool:
    """Whether a laid-out picture also gets a compact one."""
    return bool(folded) and (len(layout["nodes"]) > BIG or layout["width"] > PANE_PT[0]
                             or layout["height"] > PANE_PT[1])


def compact_graph(graph: Graph, folded: dict[str, list[str]]) -> Graph:
    """The graph with each folded module one box (kind `module`); arrows between boxes of one
    module go, arrows from outside end on its box (merged when several did)."""
    box_of = {m: group_id(p) for p, members in folded.items() for m in members}
    small = Graph(groups=graph.groups)
    for node in graph.nodes.values():
        box = box_of.get(node.id)
        if box is None:
            small.nodes[node.id] = node
        elif box not in small.nodes:
            path = next(p for p in folded if group_id(p) == box)
            info = graph.groups[path]
            parent = info["parent"] if info["parent"] in graph.groups else ""
            count = len(folded[path])
            small.nodes[box] = GNode(box, "module", info["label"],
                                     tooltip=f"{info['label']}: {count} boxes inside",
                                     group=parent or "")
    for edge in graph.edges.values():
        src, dst = box_of.get(edge.src, edge.src), box_of.get(edge.dst, edge.dst)
        key = f"e_{src}_{dst}"
        if src == dst or key in small.edges:
            continue
        merged = src != edge.src or dst != edge.dst
        small.edges[key] = GEdge(key, src, dst, edge.kind, 1 if merged else edge.count)
    return small
