"""The autograd graph as a picture: trace → DOT (the `graphviz` package) → Graphviz `dot`.

torchviz's `make_dot` vocabulary, drawn from a whole run instead of one tensor: leaves that
require grad (name and shape), their `AccumulateGrad`, op nodes named by `grad_fn`, the tensors
ops produce and save, and, visibly outside the graph, constants, `no_grad` results and detached
tensors. One layout covers the union of everything the run ever creates, so nothing moves while
the learner steps. Layout runs in-process through pygraphviz, whose wheel bundles Graphviz
(docs/layout.md says why and how fast).

Example:
    >>> g = Graph()
    >>> _ = g.add_node("t0", "leaf", "x", "(3,)")
    >>> _ = g.add_node("n0", "accumulate", "AccumulateGrad")
    >>> _ = g.add_edge("t0", "n0", "variable")
    >>> sorted(lay_out(g)["nodes"])
    ['n0', 't0']
"""
from __future__ import annotations

import functools
import re
import threading
from collections.abc import Callable

import graphviz
from graphviz import nohtml, quoting

from gradstep.app.services.answer_budget import OverBudget, PictureBudget, placeholder
from gradstep.app.services.compact import compact_graph, folded_modules, group_id, wants_compact
from gradstep.app.services.graph import Graph, graph_from_trace
from gradstep.app.services.groups import assign_groups
from gradstep.app.services.iterations import births, groups, shown_at, split_iterations, subgraph
from gradstep.app.services.lean_svg import FONT, lean_svg
from gradstep.app.services.windowed import op_lines, windowed_graph

__all__ = ["Graph", "graph_from_trace", "to_dot", "lay_out", "layout_trace", "clean_svg",
           "GraphTooLarge", "OverBudget", "run_dot", "warm_up", "with_tips"]

# Node look per kind: torchviz's palette (lightblue leaves, grey ops, orange saved tensors,
# green outputs), softened, with shapes that tell kinds apart without colour too.
NODE_STYLE: dict[str, dict[str, str]] = {
    "leaf": {"shape": "box", "style": "rounded,filled", "fillcolor": "#cfe8fc",
             "color": "#2b6cb0"},
    "param": {"shape": "box", "style": "rounded,filled,bold", "fillcolor": "#cfe8fc",
              "color": "#2b6cb0"},
    "tensor": {"shape": "box", "style": "rounded,filled", "fillcolor": "#e6f4d7",
               "color": "#4a7c2a"},
    "accumulate": {"shape": "box", "style": "filled", "fillcolor": "#eeeeee",
                   "color": "#777777"},
    "op": {"shape": "box", "style": "filled", "fillcolor": "#e9e9ef", "color": "#555566"},
    "constant": {"shape": "box", "style": "rounded,dashed", "fillcolor": "white",
                 "color": "#999999", "fontcolor": "#666666"},
    # a library module drawn as one box in the compact picture (app/services/compact.py)
    "module": {"shape": "box", "style": "rounded,filled", "fillcolor": "#f4f5f8",
               "color": "#9aa1b2"},
    # the folded middle of a long chain in the windowed picture (app/services/windowed.py)
    "run": {"shape": "box", "style": "rounded,filled,dashed", "fillcolor": "#f7f7fa",
            "color": "#555566"},
}
EDGE_STYLE: dict[str, dict[str, str]] = {
    "next": {"color": "#555566"},          # next_functions: the path gradients take back
    "variable": {"color": "#2b6cb0"},      # leaf → its AccumulateGrad
    "output": {"color": "#4a7c2a"},        # grad_fn → the tensor it made
    "saved": {"color": "#dd8a1e", "style": "dashed", "arrowhead": "odot",
              "constraint": "false"},      # saved for backward; must not bend the ranks
    "constant": {"color": "#aaaaaa", "style": "dashed"},  # an input outside the graph
}

_POINTS_PER_INCH = 72.0

# NOTE [value rows] (app/services/graph.py): the room a box keeps under its label for the
# rows the page fills in. The page writes them in a 10 px monospace font (CHAR_PT a
# character), ROW_PT apart; the label's own lines are LINE_PT apart at font size 11.
ROW_PT = 13.0
CHAR_PT = 6.1
LINE_PT = 13.5


class GraphTooLarge(ValueError):
    """The graph has more boxes than the server lays out (GRADSTEP_LAYOUT_MAX_NODES)."""


def effort(boxes: int) -> dict[str, str]:
    """How hard `dot` works, by graph size: `mclimit` scales the crossing-minimisation
    passes, `nslimit`/`nslimit1` the network-simplex passes that rank and place nodes.

    Both grow faster than linearly and dominate layout time; beyond a few hundred boxes
    shorter searches give nearly the same picture in about half the time (docs/layout.md).
    """
    if boxes <= 200:
        return {}
    return {"mclimit": "0.5" if boxes <= 1000 else "0.2", "nslimit": "1", "nslimit1": "1"}


def to_dot(graph: Graph, lean: bool = False) -> graphviz.Digraph:
    """Build the DOT description; node names and SVG ids are the trace's ids.

    `lean` leaves out the tooltips, so Graphviz writes no link around each box: the page's
    copy (app/services/lean_svg.py), whose tips travel as data, and whose cache key must not
    depend on tip texts.

    The lines are exactly what `Digraph.node`/`Digraph.edge` write (attributes sorted, each
    quoted by `graphviz.quoting.quote`), but each kind's constant attributes are quoted once,
    not once per box: with a dozen attributes a box, that quoting was half of a small
    graph's whole layout time.
    """
    dot = graphviz.Digraph("autograd", strict=False)
    dot.attr("graph", rankdir="TB", nodesep="0.18", ranksep="0.35", pad="0.02",
             bgcolor="transparent", fontname=FONT, **effort(len(graph.nodes)))
    dot.attr("node", fontname=FONT, fontsize="11", height="0.3", margin="0.12,0.04",
             penwidth="1.2")
    dot.attr("edge", arrowsize="0.6", penwidth="1.1", fontname=FONT)
    quote = quoting.quote
    lines: dict[str, list[str]] = {}     # group path -> its boxes' lines
    for node in graph.nodes.values():
        label = node.label if not node.sublabel else f"{node.label}\n{node.sublabel}"
        # nohtml: a label like "<b>" must stay text, never become a Graphviz HTML label
        values = {"id": quote(node.id), "tooltip": quote(nohtml(node.tooltip or node.label))}
        attrs = " ".join(part or f"{key}={values[key]}" for key, part in _node_attrs(node.kind)
                         if not (lean and key == "tooltip"))
        if node.rows:
            attrs += _room(node)
        lines.setdefault(node.group, []).append(
            f"\t{quote(node.id)} [label={quote(nohtml(label))} {attrs}]\n")
    dot.body.extend(lines.pop("", []))
    dot.body.extend(_clusters(lines, graph.groups))
    for edge in graph.edges.values():
        values = {"id": quote(edge.id)}
        if edge.count > 1:
            values["label"] = quote(f"×{edge.count}")
        attrs = " ".join(part or f"{key}={values[key]}"
                         for key, part in _edge_attrs(edge.kind, edge.count > 1))
        dot.body.append(f"\t{quoting.quote_edge(edge.src)} -> {quoting.quote_edge(edge.dst)} "
                        f"[{attrs}]\n")
    return dot


def _clusters(lines: dict[str, list[str]], groups: dict[str, dict]) -> list[str]:
    """Nested `subgraph cluster_…` blocks, one per module with boxes in this picture (and
    the modules around it, so nesting follows the module tree)."""
    children: dict[str | None, list[str]] = {}
    shown: set[str] = set()
    for start in lines:
        path: str | None = start
        while path is not None and path not in shown and path in groups:
            shown.add(path)
            parent = groups[path]["parent"]
            parent = parent if parent in groups else None   # its call fell out of the trace
            children.setdefault(parent, []).append(path)
            path = parent
    out: list[str] = []

    def emit(path: str) -> None:
        info = groups[path]
        gid = group_id(path)
        style = "rounded,dashed" if info["user"] else "rounded"
        out.append(f"\tsubgraph {quoting.quote('cluster_' + gid)} {{\n"
                   f"\t\tid={quoting.quote(gid)} class={quoting.quote('gs-group')} "
                   f"label={quoting.quote(nohtml(info['label']))} labeljust=l style={quote(style)} "
                   f"color=\"#9aa1b2\" fontsize=11 margin=8\n")
        out.extend(lines.get(path, []))
        for child in children.get(path, []):
            emit(child)
        out.append("\t}\n")

    quote = quoting.quote
    for top in children.get(None, []):
        emit(top)
    return out


def _room(node) -> str:
    """The size attributes that keep room for a node's value rows, label on top."""
    lines = 2 if node.sublabel else 1
    height = (lines * LINE_PT + len(node.rows) * ROW_PT + 8) / _POINTS_PER_INCH
    width = (node.chars * CHAR_PT + 16) / _POINTS_PER_INCH
    return f" height={height:.3f} width={width:.3f} labelloc=t"


@functools.cache
def _node_attrs(kind: str) -> tuple[tuple[str, str], ...]:
    """A node kind's attributes in DOT order: (key, "key=value") for the constant ones,
    (key, "") for those that vary per node (its id and tooltip)."""
    return _attr_parts({"class": f"gs-node gs-{kind}", **NODE_STYLE[kind],
                        "id": None, "tooltip": None})


@functools.cache
def _edge_attrs(kind: str, counted: bool) -> tuple[tuple[str, str], ...]:
    """The same for an edge kind; a repeated edge (x * x) also has a label (its count),
    which comes first, as Graphviz's `label` argument does."""
    parts = _attr_parts({**EDGE_STYLE[kind], "id": None, "class": f"gs-edge gs-{kind}",
                         **({"fontsize": "11"} if counted else {})})
    return (("label", ""),) + parts if counted else parts


def _attr_parts(attrs: dict) -> tuple[tuple[str, str], ...]:
    return tuple((key, "" if value is None else f"{quoting.quote(key)}={quoting.quote(value)}")
                 for key, value in sorted(attrs.items()))


# NOTE [one Graphviz call at a time]: libcgraph keeps process-global symbol tables, and two
# layouts on two threads corrupt them (seen under load: `agxget: Assertion ... failed`, which
# aborts the whole server). Every in-process use of pygraphviz takes this lock; big graphs
# go to DotProcess children, which have a Graphviz each.
GRAPHVIZ_LOCK = threading.Lock()


def run_dot(source: str) -> tuple[str, dict[str, tuple[str, str, str]]]:
    """Lay out DOT with the Graphviz inside pygraphviz: the SVG, and each node's
    (pos, width, height) attributes as Graphviz wrote them. Pure, so it can run in another
    process."""
    import pygraphviz  # the bundled Graphviz loads on first use, not on `import app`

    with GRAPHVIZ_LOCK:
        agraph = pygraphviz.AGraph(string=source)
        agraph.layout(prog="dot")
        svg = agraph.draw(format="svg").decode("utf-8")
        attrs = {str(n): (n.attr["pos"], n.attr["width"], n.attr["height"])
                 for n in agraph.nodes()}
    return svg, attrs


def warm_up() -> None:
    """Lay out a two-box graph once, so that loading Graphviz is not a request's cost."""
    run_dot('digraph { a -> b [label="x"] }')


def lay_out(graph: Graph, max_nodes: int | None = None, dot_runner=None) -> dict:
    """Run `dot` on the graph; return the layout the browser draws from (docs/api.md).

    Coordinates are in the SVG's user units (points), origin top left: a node's `x`, `y`
    are its centre, `w`, `h` its size. Raises GraphTooLarge above `max_nodes` boxes.
    `dot_runner(source, boxes)` replaces `run_dot`: the server passes a DotProcess, which
    runs large graphs in a separate process.
    """
    if max_nodes is not None and len(graph.nodes) > max_nodes:
        raise GraphTooLarge(f"The graph has {len(graph.nodes)} boxes; the server draws at most "
                            f"{max_nodes}.")
    source = to_dot(graph, lean=True).source
    svg, attrs = dot_runner(source, len(graph.nodes)) if dot_runner else run_dot(source)
    return with_tips({"engine": "dot", "svg": lean_svg(clean_svg(svg)),
                      **_geometry(attrs, graph, svg)}, graph)


def with_tips(layout: dict, graph: Graph) -> dict:
    """Each box's tooltip text as data (`nodes[id].tip`): the page's SVG has no links."""
    for name, box in layout["nodes"].items():
        node = graph.nodes[name]
        box["tip"] = node.tooltip or node.label
    return layout


def _geometry(attrs: dict, graph: Graph, svg: str) -> dict:
    # Take the offset from the SVG Graphviz drew, so the numbers match its pixels exactly:
    # it draws at (x + tx, ty - y) in a viewBox of width × height.
    translate, viewbox = _TRANSLATE.search(svg), _VIEWBOX.search(svg)
    assert translate and viewbox, "Graphviz wrote an SVG without its transform or viewBox"
    tx, ty = _floats(translate.group(1))
    width, height = _floats(viewbox.group(1))[2:]
    nodes: dict[str, dict] = {}
    for name in graph.nodes:
        pos, w, h = attrs[name]
        x, y = _floats(pos)
        nodes[name] = {"x": round(x + tx, 2), "y": round(ty - y, 2),
                       "w": round(float(w) * _POINTS_PER_INCH, 2),
                       "h": round(float(h) * _POINTS_PER_INCH, 2)}
        gnode = graph.nodes[name]
        if gnode.rows:
            nodes[name]["rows"] = list(gnode.rows)
            nodes[name]["chars"] = gnode.chars
        if gnode.gate:
            nodes[name]["gate"] = gnode.gate
    edges = [{"id": e.id, "from": e.src, "to": e.dst, "kind": e.kind}
             for e in graph.edges.values()]
    out = {"nodes": nodes, "edges": edges, "width": width, "height": height}
    groups = _group_members(graph)
    if groups:
        out["groups"] = groups
    return out


def _group_members(graph: Graph) -> dict[str, dict]:
    """The module clusters drawn: SVG id -> label, path, parent's SVG id, whether the learner
    wrote the module, and every box inside it (nested groups' included)."""
    out: dict[str, dict] = {}
    for node in graph.nodes.values():
        path = node.group
        seen: set[str] = set()      # a forged chain may come back (groups.break_cycles)
        while path and path in graph.groups and path not in seen:
            seen.add(path)
            info = graph.groups[path]
            gid = group_id(path)
            if gid not in out:
                parent = info["parent"]
                out[gid] = {"label": info["label"], "path": path, "user": info["user"],
                            "parent": group_id(parent) if parent else None, "members": []}
            out[gid]["members"].append(node.id)
            path = info["parent"]
    return out


_TRANSLATE = re.compile(r'class="graph" transform="[^"]*translate\(([^)]*)\)')
_VIEWBOX = re.compile(r'viewBox="([^"]*)"')


def _floats(text: str) -> list[float]:
    # Graphviz writes "x,y" in pos and bb; some builds separate with spaces instead.
    return [float(v) for v in re.split(r"[,\s]+", text.strip())]


_XML_PROLOGUE = re.compile(r"^.*?(?=<svg)", re.S)
_COMMENT = re.compile(r"<!--.*?-->\n?", re.S)


def clean_svg(svg: str) -> str:
    """Drop the XML prologue, DOCTYPE and comments: the SVG is inlined into an HTML page, and
    the comments repeat node names (program text) for nothing."""
    return _COMMENT.sub("", _XML_PROLOGUE.sub("", svg, count=1))


# More distinct pictures than this (a loop whose graph changes every iteration) and the run is
# drawn whole, as one picture: that many layouts would cost more than they help.
MAX_VIEWS = 12


def layout_trace(trace: dict, max_nodes: int | None = None, dot_runner=None,
                 lay: Callable[..., dict] | None = None,
                 budget: PictureBudget | None = None) -> dict:
    """The layout of everything a trace creates, one iteration at a time (docs/layout.md).

    The top-level fields are the first picture's; `views` holds the other distinct
    pictures, `iterations` says which picture each stretch of the run uses (and, with
    `alias`, which of its boxes stand for which ids), and `steps` lists [seq, iteration]
    where the stretch on screen changes. `lay(graph, max_nodes, dot_runner)` lays out one
    picture: `lay_out`, or the server's `layout_reuse.lay_out_reusing` with its cache.
    `budget` (app/services/answer_budget.py) bounds the pictures' bytes: those that would
    not fit are not laid out, and OverBudget is raised when the first one does not.
    """
    lay = _with_compact(lay or lay_out)
    graph = graph_from_trace(trace)
    graph.groups = assign_groups(trace, graph)
    events = trace["events"]
    group_of = groups(births(events, graph), graph)
    cut = split_iterations(group_of, graph)
    unique = list({id(it.nodes): it.nodes for it in cut}.values())
    if len(cut) == 1 or len(unique) > MAX_VIEWS:
        graph, runs = _within_reach(graph, events, max_nodes, budget)
        if budget is not None and not budget.admits(graph):
            raise OverBudget(budget.note())
        layout = lay(graph, max_nodes, dot_runner)
        if runs:
            layout["runs"] = runs
        if budget is not None and not budget.take(layout):
            raise OverBudget(budget.note())
        passes, summarised = _passes(events, None, 0)
        return {**layout, "views": [], "steps": [[0, 0]],
                "iterations": [{"view": 0, "passes": passes, "summarised": summarised}]}
    pictures = _pictures([subgraph(graph, nodes) for nodes in unique], max_nodes, dot_runner,
                         lay, budget)
    which = {id(nodes): k for k, nodes in enumerate(unique)}
    steps = [[seq, g] for seq, g in shown_at(events, group_of)]
    iterations = []
    for g, it in enumerate(cut):
        passes, summarised = _passes(events, steps, g)
        entry: dict = {"view": which[id(it.nodes)], "passes": passes,
                       "summarised": summarised}
        if it.alias:
            entry["alias"] = it.alias
        iterations.append(entry)
    return {**pictures[0], "views": pictures[1:], "steps": steps, "iterations": iterations}


def _within_reach(graph: Graph, events: list[dict], max_nodes: int | None,
                  budget: PictureBudget | None) -> tuple[Graph, dict]:
    """`graph`, or when its picture could not be drawn (more boxes than `max_nodes`, or
    more bytes than `budget` has left) its windowed version: long chains folded to their
    ends (app/services/windowed.py), with the folded runs (box id -> what it stands for)."""
    too_many = max_nodes is not None and len(graph.nodes) > max_nodes
    if not too_many and (budget is None or budget.fits(graph)):
        return graph, {}
    lines, after_gap = op_lines(events)
    return windowed_graph(graph, lines, after_gap)


def _with_compact(lay: Callable[..., dict]) -> Callable[..., dict]:
    """`lay`, and for a picture too big for the pane with library modules in it, its compact
    version as `compact` (app/services/compact.py), with `folded`: each module box's SVG id ->
    the ids of the boxes it stands for. It travels inside the picture, so the answer budget
    charges it with the picture."""
    def lay_both(graph: Graph, max_nodes: int | None, dot_runner) -> dict:
        full = lay(graph, max_nodes, dot_runner)
        folded = folded_modules(graph)
        if wants_compact(full, folded):
            small = lay(compact_graph(graph, folded), max_nodes, dot_runner)
            small["folded"] = {group_id(path): members for path, members in folded.items()}
            full["compact"] = small
        return full
    return lay_both


def _pictures(graphs: list[Graph], max_nodes: int | None, dot_runner, lay: Callable[..., dict],
              budget: PictureBudget | None) -> list[dict]:
    """Lay out each picture in the order the run shows them, those the budget admits; the
    others become empty placeholders (docs/layout.md, the answer's size)."""
    if budget is None:
        return [lay(g, max_nodes, dot_runner) for g in graphs]
    drawn: list[dict | None] = []
    for g in graphs:
        picture = lay(g, max_nodes, dot_runner) if budget.admits(g) else None
        drawn.append(picture if picture is not None and budget.take(picture) else None)
    first = drawn[0]
    if first is None:
        raise OverBudget(budget.note())
    pictures = []
    for picture in drawn:
        if picture is None:
            picture = placeholder(first["width"], first["height"])
            budget.charge(picture)
        pictures.append(picture)
    return pictures


def _passes(events: list[dict], steps: list | None, group: int) -> tuple[list[int] | None, bool]:
    """The first and last backward pass shown in a stretch (summarised ones included), and
    whether an `elided` step summarises some of it."""
    steps = steps if steps is not None else [[0, group]]
    bounds = [s for s, g in steps if g == group]
    ends = {s: (steps[k + 1][0] if k + 1 < len(steps) else len(events))
            for k, (s, _) in enumerate(steps)}
    found: list[int] = []
    summarised = False
    for start in bounds:
        for ev in events[start:ends[start]]:
            if ev["kind"] == "backward_begin":
                found.append(ev["pass"])
            elif ev["kind"] == "elided" and ev.get("reason") != "library":
                # a library step (what nn does in a constructor) is folded, not summarised
                summarised = True
                found.extend(ev.get("passes") or [])
    return ([min(found), max(found)] if found else None), summarised
