"""Reusing a layout for a graph of the same shape (`GRADSTEP_LAYOUT_CACHE_SIZE` of them).

A learner edits a program and runs it again: another learning rate, more epochs, a print
added. The graph is usually the same, but its ids are not (ids count every tensor the run
made, so ten more epochs shift them all), so the layout is keyed on the graph with its ids
renamed in drawing order: `_g0`, `_g1`, ... for boxes and `_e0`, ... for arrows. The DOT text
of that renamed graph says everything `dot` reads, and its hash is the key. A hit costs a
rename of the cached layout back to this run's ids instead of a Graphviz run.

Example:
    >>> from gradstep.app.services.cache import LruCache
    >>> from gradstep.app.services.layout import Graph
    >>> def graph(first):
    ...     g = Graph()
    ...     g.add_node(first, "leaf", "x", "(3,)", f"{first}: x")
    ...     g.add_node("n9", "accumulate", "AccumulateGrad"); g.add_edge(first, "n9", "variable")
    ...     return g
    >>> cache = LruCache(4)
    >>> a = lay_out_reusing(graph("t0"), cache=cache)
    >>> b = lay_out_reusing(graph("t7"), cache=cache)
    >>> len(cache), sorted(b["nodes"]), 'id="t7"' in b["svg"], "t0" in b["svg"]
    (1, ['n9', 't7'], True, False)
"""
from __future__ import annotations

import re

from gradstep.app.services.cache import LruCache, source_key
from gradstep.app.services.graph import GEdge, GNode, Graph
from gradstep.app.services.layout import lay_out, to_dot, with_tips

# A renamed id: no user text can hold one as a word of its own, since the recorder never
# names a tensor after a variable whose name starts with "_" (runner/recorder.py, _scan), and
# the rest of a label or tooltip is op names, shapes and dtypes. Graphviz also writes ids
# with "a_" before them, for the link around each box and arrow.
_TRACE_ID = re.compile(r"(?<![\w])[tn]\d+(?![\w])")
_RENAMED = re.compile(r"(?<![\w])(a_)?(_[ge]\d+)(?![\w])")


def lay_out_reusing(graph: Graph, max_nodes: int | None = None, dot_runner=None,
                    cache: LruCache | None = None) -> dict:
    """`layout.lay_out(graph, max_nodes, dot_runner)`, from `cache` when a graph of the same
    shape was laid out before. Each call returns a layout of its own."""
    if max_nodes is not None and len(graph.nodes) > max_nodes:
        return lay_out(graph, max_nodes)  # refuses before anything is built
    shape, real = _renamed(graph)
    key = source_key(to_dot(shape, lean=True).source)    # tips are data, not in the key
    layout = cache.get(key) if cache is not None else None
    if layout is None:
        layout = lay_out(shape, max_nodes, dot_runner)
        if cache is not None:
            cache.put(key, layout)
    return with_tips(_named_back(layout, real), graph)


def _renamed(graph: Graph) -> tuple[Graph, dict[str, str]]:
    """The graph with ids renamed in drawing order, and the map from new ids back to old."""
    new = {old: f"_g{i}" for i, old in enumerate(graph.nodes)}
    shape, real = Graph(groups=graph.groups), {v: k for k, v in new.items()}

    def renamed(match: re.Match) -> str:
        return new.get(match.group(0), match.group(0))

    for old, node in graph.nodes.items():
        # ids in tooltips too ("t5: torch.float32(2,)"), which dot copies but never measures;
        # labels are measured, so they keep their text
        shape.nodes[new[old]] = GNode(new[old], node.kind, node.label, node.sublabel,
                                      _TRACE_ID.sub(renamed, node.tooltip), node.named,
                                      node.rows, node.chars, node.group, node.gate)
    for i, edge in enumerate(graph.edges.values()):
        eid = f"_e{i}"
        real[eid] = edge.id
        shape.edges[eid] = GEdge(eid, new[edge.src], new[edge.dst], edge.kind, edge.count)
    return shape, real


def _named_back(layout: dict, real: dict[str, str]) -> dict:
    def back(match: re.Match) -> str:
        return (match.group(1) or "") + real.get(match.group(2), match.group(2))

    out = {**layout, "svg": _RENAMED.sub(back, layout["svg"]),
           "nodes": {real[k]: dict(v) for k, v in layout["nodes"].items()},
           "edges": [{**e, "id": real[e["id"]], "from": real[e["from"]], "to": real[e["to"]]}
                     for e in layout["edges"]]}
    if "groups" in layout:      # module clusters keep their ids (paths); their boxes' change
        out["groups"] = {gid: {**g, "members": [real[m] for m in g["members"]]}
                         for gid, g in layout["groups"].items()}
    return out
