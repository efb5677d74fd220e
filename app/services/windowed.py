"""The windowed picture: a chain too long to draw, drawn as its ends with the middle folded.

`for i in range(5000): x = x * 1.0001` makes a chain of 5,000 alike steps (a
`MulBackward0` and the tensor it made, each step taking the one before). Drawn whole it is
10,000 boxes, more than an answer's size budget holds, and the pane would stay empty. Nothing
is learnt from the 4,980th box that the 10th did not show, so `windowed_graph` keeps the first
and last `KEEP` steps of each such run and draws the middle as one box of kind `run`, which
says how many ops it stands for (the ops the trace itself left out of a capped stretch
included). The page shows that box lit while a step works inside the fold (docs/layout.md,
the windowed picture).

Steps are alike when their op nodes have the same name, their tensors the same shape and
both come from the same line of the program; a step follows another when its node's only
`next` arrow comes from the other's node and the other's tensor goes nowhere else (or when
the trace's cap cut the arrow between them: two alike steps either side of a left-out
stretch).

Example:
    >>> g = Graph()
    >>> _ = g.add_node("t0", "leaf", "x", "(2,)")
    >>> prev = None
    >>> for k in range(1, 31):
    ...     _ = g.add_node(f"n{k}", "op", "MulBackward0")
    ...     _ = g.add_node(f"t{k}", "tensor", "", "(2,)")
    ...     _ = g.add_edge(f"n{k}", f"t{k}", "output")
    ...     if prev: _ = g.add_edge(prev, f"n{k}", "next")
    ...     prev = f"n{k}"
    >>> small, runs = windowed_graph(g, {f"n{k}": 5 for k in range(1, 31)})
    >>> [(box, info["ops"], len(info["members"])) for box, info in runs.items()]
    [('r_n11', 10, 20)]
    >>> len(small.nodes)
    42
"""
from __future__ import annotations

from collections import defaultdict

from gradstep.app.services.graph import GEdge, GNode, Graph

KEEP = 10           # steps kept at each end of a run
SHORTEST = 2 * KEEP + 3   # a shorter run is drawn whole: folding two steps saves nothing


def op_lines(events: list[dict]) -> tuple[dict[str, int | None], dict[str, int]]:
    """The program line of each op node of a trace (kept and carried events alike), and for
    each node that comes right after a stretch the trace left out, how many ops that stretch
    held and no box draws (`elided` events' `counts`, less the ops they carried)."""
    line: dict[str, int | None] = {}
    after_gap: dict[str, int] = {}
    gap = 0
    for ev in events:
        if ev["kind"] == "elided":
            carried = [c for c in ev.get("carried") or [] if c["kind"] == "op" and c["node"]]
            gap += max(0, (ev.get("counts") or {}).get("op", 0) - len(carried))
            for c in carried:
                line[c["node"]["id"]] = c["line"]
                if gap:
                    after_gap[c["node"]["id"]], gap = gap, 0
        elif ev["kind"] == "op" and ev.get("node"):
            line[ev["node"]["id"]] = ev["line"]
            if gap:
                after_gap[ev["node"]["id"]], gap = gap, 0
    return line, after_gap


def windowed_graph(graph: Graph, lines: dict[str, int | None],
                   after_gap: dict[str, int] | None = None) -> tuple[Graph, dict[str, dict]]:
    """The graph with each long run of alike steps folded to its ends and one `run` box, and
    for each such box: `members` (the ids it stands for, in order), `ops` (how many ops)
    and `op` (their node's name). Unchanged, with no runs, when there is no long run."""
    after_gap = after_gap or {}
    outs: dict[str, list[GEdge]] = defaultdict(list)
    ins: dict[str, list[GEdge]] = defaultdict(list)
    for e in graph.edges.values():
        outs[e.src].append(e)
        ins[e.dst].append(e)
    result = {n: next((e.dst for e in outs[n] if e.kind == "output"), None)
              for n, node in graph.nodes.items() if node.kind == "op"}

    def key(n: str) -> tuple:
        t = graph.nodes.get(result[n] or "")
        # a named result shows its shape under the name, an unnamed one as its label
        return (graph.nodes[n].label, (t.sublabel or t.label) if t else None, lines.get(n))

    def follows(a: str, b: str) -> bool:
        """Whether step b takes step a's result and nothing else of a's goes anywhere.
        Results named by a rebinding (`x₂`, `x₃` …) fold too: the variable has moved on,
        and the result it holds at the end is the last step, which is kept."""
        ta = result[a]
        if ta is None or result[b] is None or key(a) != key(b):
            return False
        if any(e.dst != b for e in outs[ta]):
            return False
        nxt_in = [e.src for e in ins[b] if e.kind == "next"]
        nxt_out = [e.dst for e in outs[a] if e.kind == "next"]
        if nxt_in == [a] and nxt_out == [b]:
            return True
        # the trace's cap left out the ops between them: neither arrow survived
        return not nxt_in and not nxt_out and b in after_gap

    order = list(result)
    runs: list[list[str]] = []
    current: list[str] = []
    for n in order:
        if current and follows(current[-1], n):
            current.append(n)
        else:
            if len(current) >= SHORTEST:
                runs.append(current)
            current = [n]
    if len(current) >= SHORTEST:
        runs.append(current)
    if not runs:
        return graph, {}
    return _fold(graph, runs, result, after_gap)


def _fold(graph: Graph, runs: list[list[str]], result: dict[str, str | None],
          after_gap: dict[str, int]) -> tuple[Graph, dict[str, dict]]:
    box_of: dict[str, str] = {}
    info: dict[str, dict] = {}
    for run in runs:
        middle = run[KEEP:-KEEP]
        box = f"r_{middle[0]}"
        members = [i for n in middle for i in (n, result[n]) if i is not None]
        for m in members:
            box_of[m] = box
        ops = len(middle) + sum(after_gap.get(n, 0) for n in run[KEEP:-KEEP + 1])
        info[box] = {"members": members, "ops": ops, "op": graph.nodes[run[0]].label}
    small = Graph(groups=graph.groups)
    for node in graph.nodes.values():
        box = box_of.get(node.id, "")
        if not box:
            small.nodes[node.id] = node
        elif box not in small.nodes:
            first = graph.nodes[node.id]
            # the words the page shows in the learner's language; this text keeps the room
            label = f"… {info[box]['ops']:,} more ops like this …"
            small.nodes[box] = GNode(box, "run", label, info[box]["op"],
                                     tooltip=f"{info[box]['ops']:,} × {info[box]['op']}",
                                     group=first.group)
    for edge in graph.edges.values():
        src, dst = box_of.get(edge.src, edge.src), box_of.get(edge.dst, edge.dst)
        key = f"e_{src}_{dst}"
        if src == dst or key in small.edges or edge.kind == "saved" and (
                src != edge.src or dst != edge.dst):
            continue
        small.edges[key] = GEdge(key, src, dst, edge.kind, edge.count)
    return small, info
