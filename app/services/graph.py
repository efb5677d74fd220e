"""The drawable graph of a run: which boxes and arrows exist, before any geometry.

`graph_from_trace` folds a whole trace (docs/trace-format.md) into the union of every tensor
and autograd node the run created, in first-seen order so the layout is stable. The kinds
follow torchviz: leaf, param, tensor (an op's result), op, accumulate (AccumulateGrad), and
constant for tensors outside the graph (no requires_grad, made under no_grad, detached).

Example:
    >>> g = Graph()
    >>> g.add_node("n1", "op", "MulBackward0"); g.add_edge("n0", "n1", "next")
    >>> g.add_edge("n0", "n1", "next"); g.edges["e_n0_n1"].count
    2
"""
from __future__ import annotations

from dataclasses import dataclass, field

from gradstep.app.services.gates import name_gates
from gradstep.app.services.trace_ops import shape_text

KINDS = ("leaf", "param", "tensor", "op", "accumulate", "constant")
EDGE_KINDS = ("next", "variable", "output", "saved", "constant")


@dataclass
class GNode:
    id: str
    kind: str
    label: str
    sublabel: str = ""
    tooltip: str = ""
    named: bool = False     # a tensor the program gave a name to
    # Rows the page writes numbers into, under the label ("data", "grad", "saved"); the
    # layout keeps room for them so values never spill over edges or other boxes.
    rows: tuple[str, ...] = ()
    chars: int = 0          # the widest row text the room is kept for, in characters
    group: str = ""         # the module path it was made in (app/services/groups.py)
    gate: str = ""          # an LSTM gate's letter, i, f, g or o (app/services/gates.py)


@dataclass
class GEdge:
    id: str
    src: str
    dst: str
    kind: str
    count: int = 1


@dataclass
class Graph:
    """Boxes and arrows keyed by trace id; insertion order is drawing order."""

    nodes: dict[str, GNode] = field(default_factory=dict)
    edges: dict[str, GEdge] = field(default_factory=dict)
    # module path -> {"label", "parent", "user"} (app/services/groups.py)
    groups: dict[str, dict] = field(default_factory=dict)

    def add_node(self, id: str, kind: str, label: str, sublabel: str = "",
                 tooltip: str = "") -> GNode:
        """Add a box, or update the one with this id (a later event knows more)."""
        if kind not in KINDS:
            raise ValueError(f"unknown node kind {kind!r}")
        node = self.nodes.get(id)
        if node is None:
            node = self.nodes[id] = GNode(id, kind, label, sublabel, tooltip)
        else:
            # a later event may leave the sublabel out, but never keeps one that now says
            # what the label says (an unnamed tensor first met as a constant, `tensor` over
            # its shape, is then labelled by the shape alone)
            kept = node.sublabel if node.sublabel != label else ""
            node.kind, node.label = kind, label
            node.sublabel, node.tooltip = sublabel or kept, tooltip or node.tooltip
        return node

    def add_edge(self, src: str, dst: str, kind: str) -> GEdge:
        """Add an arrow; a repeated one (x * x) is drawn once and counted."""
        if kind not in EDGE_KINDS:
            raise ValueError(f"unknown edge kind {kind!r}")
        key = f"e_{src}_{dst}"
        edge = self.edges.get(key)
        if edge is None:
            edge = self.edges[key] = GEdge(key, src, dst, kind)
        elif edge.kind == kind:
            edge.count += 1
        return edge

    def prune_dangling(self) -> None:
        """Drop arrows whose ends were never described (e.g. cut off by an `elided` event)."""
        for key in [k for k, e in self.edges.items()
                    if e.src not in self.nodes or e.dst not in self.nodes]:
            del self.edges[key]


    def drop_side_computations(self) -> None:
        """Drop unnamed tensors outside the graph that never meet it: `y.data.norm()` in a
        `while` test, `(a - b).abs().max()` printed to check a result.

        Such side computations explain nothing about autograd, yet a loop makes one per
        iteration and they crowd out the graph the learner came to see. A tensor outside the
        graph stays when it, or any tensor it is joined to by "constant" arrows, has a name
        (`v = torch.tensor(...)` for `y.backward(v)`) or an arrow to or from the graph (a
        constant factor, a `no_grad` update). A run that records no graph at all keeps every
        box: then they are all there is to draw. Their steps still play; only the box is gone.
        """
        constant = {i for i, n in self.nodes.items() if n.kind == "constant"}
        if len(constant) == len(self.nodes):
            return
        joined: dict[str, list[str]] = {i: [] for i in constant}
        keep = {i for i in constant if self.nodes[i].named}
        for e in self.edges.values():
            if e.src in constant and e.dst in constant:
                joined[e.src].append(e.dst)
                joined[e.dst].append(e.src)
            else:
                keep.update({e.src, e.dst} & constant)
        stack = list(keep)
        while stack:    # whatever is joined to a kept box is kept too
            for other in joined[stack.pop()]:
                if other not in keep:
                    keep.add(other)
                    stack.append(other)
        for i in constant - keep:
            del self.nodes[i]
        self.prune_dangling()


    def drop_lone_leaves(self) -> None:
        """Drop leaves that require grad yet have no name and no arrow: a parameter a library
        constructor made and the program then replaced (`self.out.weight =
        self.embed.weight` ties two modules' weights; the Linear's own weight is garbage).
        Nothing can reach it, so a box for it could only be called "tensor"."""
        touched = {i for e in self.edges.values() for i in (e.src, e.dst)}
        lone = [i for i, n in self.nodes.items()
                if n.kind in ("leaf", "param") and not n.named and i not in touched]
        if len(lone) < len(self.nodes):
            for i in lone:
                del self.nodes[i]


def graph_from_trace(trace: dict) -> Graph:
    """Every tensor and node a trace creates, and the arrows between them.

    Arrows point the way data flowed forward (torchviz's convention): leaf → AccumulateGrad,
    next_functions[i] → node, grad_fn → the tensor it made; gradients travel them backwards.
    Gradient arithmetic inside a backward pass without create_graph records no node and is
    not drawn: those values ride on the node_apply events instead.
    """
    graph = Graph()
    for event in _graph_events(trace["events"]):
        if event["kind"] == "tensor":
            _add_tensor(graph, event["tensor"], event["how"])
        elif event["kind"] == "op" and not (event["in_backward"] and event["node"] is None):
            _add_op(graph, event)
        elif event["kind"] == "inplace":
            _add_inplace(graph, event)
    graph.prune_dangling()
    graph.drop_lone_leaves()
    graph.drop_side_computations()
    name_gates(trace, graph)
    return graph


def _graph_events(events: list[dict]):
    for event in events:
        if event["kind"] == "elided" and event.get("call"):
            # a library function's step (clip_grad_norm_): its norms and scalings are its
            # business; what the program names (the .grads, the norm it returned) is drawn
            yield from (e for e in event["carried"] if _named(e))
        elif event["kind"] == "elided":   # an elided stretch still created these tensors/nodes
            yield from event["carried"]
        else:
            yield event


def _named(event: dict) -> bool:
    t = event.get("tensor") if event["kind"] == "tensor" else event.get("output")
    return isinstance(t, dict) and bool(t.get("name"))


def _add_tensor(graph: Graph, t: dict, how: str = "") -> None:
    shape = shape_text(t["shape"])
    if t["requires_grad"] and t["is_leaf"]:
        kind = "param" if how == "Parameter" else "leaf"
    elif t["grad_fn"] is not None:
        kind = "tensor"
    else:
        kind = "constant"
    label = t["name"] or ("" if kind == "tensor" else "tensor")
    name = t["name"] or "unnamed result"
    tip = f"{name}: {t['dtype']}{shape}, requires_grad={t['requires_grad']}"
    node = graph.add_node(t["id"], kind, label or shape, shape if label else "", tip)
    node.named = node.named or bool(t["name"])
    value = t.get("value") or {}
    if value.get("data") is None and "data" in value:
        # above the trace's data_max_numel no numbers are recorded: a row would only say "…"
        node.rows, node.chars = (), 0
    else:
        node.rows = ("data", "grad") if kind in ("leaf", "param") else ("data",)
        node.chars = value_chars(t["shape"])


# NOTE [value rows]: a tensor of up to HANDFUL elements shows its numbers in its box; a
# larger one shows a summary (its range). The room kept for a row assumes the page's
# formatting (static/js/graph/values.js): mostly NUMBER_CHARS characters a number, nested
# brackets for a matrix, "data "/"grad " in front. The page shortens anything longer.
HANDFUL = 4
NUMBER_CHARS = 6
SUMMARY_CHARS = 22
SAVED_CHARS = 20        # longer lists of saved names are cut; the tooltip has them all


def value_chars(shape: list[int]) -> int:
    """Characters kept for one value row of a tensor of this shape."""
    n = 1
    for d in shape:
        n *= d
    if n > HANDFUL:
        return SUMMARY_CHARS
    brackets = 2 * len(shape) + (2 * (shape[0] - 1) if len(shape) > 1 else 0)
    return 5 + n * NUMBER_CHARS + 2 * max(0, n - 1) + brackets


def _add_op(graph: Graph, event: dict) -> None:
    out, node = event["output"], event["node"]
    for made in event["new_nodes"] + ([node] if node else []):
        _add_node(graph, made)
    _add_tensor(graph, out)
    if node is None:
        # no graph was recorded (no_grad, or nothing requires grad): say where it came from
        for src in event["inputs"]:
            if src != out["id"]:    # `w -= …` under no_grad: an update, not an arrow to itself
                graph.add_edge(src, out["id"], "constant")
        return
    for src in event["inputs"]:
        if graph.nodes.get(src) and graph.nodes[src].kind == "constant":
            graph.add_edge(src, node["id"], "constant")
    if out["grad_fn"] is not None:
        graph.add_edge(out["grad_fn"], out["id"], "output")


def _add_inplace(graph: Graph, event: dict) -> None:
    """`k[0] = …` and friends: the tensor may join the graph under a new grad_fn
    (CopySlices), in which case a constant becomes a graph tensor."""
    for made in event["new_nodes"] + ([event["node"]] if event["node"] else []):
        _add_node(graph, made)
    if event["grad_fn"] is not None:
        tensor = graph.nodes.get(event["tensor"])
        if tensor is not None and tensor.kind == "constant":
            tensor.kind = "tensor"
        graph.add_edge(event["grad_fn"], event["tensor"], "output")


def _add_node(graph: Graph, node: dict) -> None:
    # A node with several outputs (unbind, unsafe_split, a fused LSTM layer) is described
    # with each output's op event; its arrows are drawn once, not once per output (an
    # arrow's count says how often one node uses one input, as `x * x` does).
    again = node["id"] in graph.nodes
    accumulate = node["name"] == "AccumulateGrad"
    saved = ", ".join(s["name"] for s in node["saved"])
    tip = " · ".join(filter(None, [node["name"], node.get("rule"), saved and f"saved: {saved}"]))
    gnode = graph.add_node(node["id"], "accumulate" if accumulate else "op", node["name"],
                           tooltip=tip)
    if saved:   # the saved-tensor overlay: "saved: self, other", after backward "freed: ..."
        gnode.rows, gnode.chars = ("saved",), min(SAVED_CHARS, len(f"saved: {saved}"))
    if again:
        return
    if node.get("variable"):
        graph.add_edge(node["variable"], node["id"], "variable")
    for nxt, _ in node["next_functions"]:
        if nxt is not None:
            graph.add_edge(nxt, node["id"], "next")
    for saved in node["saved"]:
        if saved["tensor"] is not None:
            graph.add_edge(saved["tensor"], node["id"], "saved")
