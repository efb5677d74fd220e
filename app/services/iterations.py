"""One iteration at a time: a run's graph cut where a loop starts over.

A training loop builds a new graph every epoch, joined to the last one only through the
parameters (leaves, their AccumulateGrad) and the data (constants). Drawn whole, the epochs sit
side by side and the picture grows with their number. `split_iterations` cuts the run where
the only arrows back in time end on such anchors, so each stretch ("iteration") is drawn on
its own with the anchors it uses; stretches joined by any other arrow (a `create_graph` pass
that differentiates an earlier graph, a tensor computed once and reused) stay together.

Iterations of a loop look alike. Each one's boxes are listed anchors first, then its own in
the order they were made; when that list and its arrows match an earlier iteration's box for
box, the earlier picture is reused, with `alias` mapping the drawn ids to this iteration's.
So a 50-epoch loop is laid out once or twice, not fifty times.

Example:
    >>> g = Graph()
    >>> for i, kind in (("t0", "param"), ("n0", "accumulate"), ("n1", "op"), ("n2", "op")):
    ...     _ = g.add_node(i, kind, "w" if i == "t0" else "MulBackward0")
    >>> _ = g.add_edge("t0", "n0", "variable")
    >>> for a, b in (("n0", "n1"), ("n0", "n2")):
    ...     _ = g.add_edge(a, b, "next")
    >>> cut = split_iterations({"t0": 0, "n0": 0, "n1": 0, "n2": 1}, g)
    >>> [(v.nodes, v.alias) for v in cut]
    [(['t0', 'n0', 'n1'], None), (['t0', 'n0', 'n1'], {'n1': 'n2'})]
"""
from __future__ import annotations

from dataclasses import dataclass

from gradstep.app.services.graph import Graph

# Boxes that outlive an iteration: what a loop's next iteration may point back to and still
# be drawn apart from the last one.
ANCHORS = ("leaf", "param", "accumulate", "constant")


@dataclass
class Iteration:
    """The boxes of one stretch, in drawing order; `alias` (drawn id -> this stretch's id)
    when the picture of an earlier stretch is reused (its `nodes` are then that one's)."""

    nodes: list[str]
    alias: dict[str, str] | None = None
    signature: tuple = ()


def births(events: list[dict], graph: Graph) -> dict[str, int]:
    """The number of backward passes begun before each box was made (a box made during a
    pass belongs to that pass's iteration)."""
    born: dict[str, int] = {}
    passes, in_pass = 0, False
    # After a pass, what the program does under no_grad (a hand-written update, `w -= lr *
    # w.grad`) ends that iteration, as optimizer.step() does; the next grad-mode op starts
    # the next one
    trailing = False
    for ev in events:
        kind = ev["kind"]
        if kind == "backward_begin":
            passes, in_pass, trailing = passes + 1, True, False
        elif kind == "backward_end" or (kind == "error" and ev.get("pass") is not None):
            in_pass, trailing = False, kind == "backward_end"
        elif trailing and kind in ("op", "tensor", "inplace") and ev.get("grad_mode", True):
            trailing = False
            for i in created(ev):
                born.setdefault(i, passes)
        elif kind == "elided":
            first_last = ev.get("passes")
            for carried in ev.get("carried") or []:
                for i in created(carried):
                    born.setdefault(i, first_last[1] if first_last else passes - in_pass)
            if first_last:
                # a summarised stretch ends with a pass: what follows under no_grad is the
                # update that ends its last iteration
                passes, in_pass, trailing = first_last[1] + 1, False, True
        else:
            for i in created(ev):
                born.setdefault(i, passes - in_pass - trailing)
    return {i: born.get(i, 0) for i in graph.nodes}


def created(ev: dict) -> list[str]:
    """The ids an event introduces."""
    kind = ev["kind"]
    if kind == "tensor":
        return [ev["tensor"]["id"]]
    if kind == "op":
        nodes = [n["id"] for n in ev["new_nodes"]] + ([ev["node"]["id"]] if ev["node"] else [])
        return nodes + [ev["output"]["id"]]
    if kind == "inplace":
        return [n["id"] for n in ev["new_nodes"]] + ([ev["node"]["id"]] if ev["node"] else [])
    return []


def groups(born: dict[str, int], graph: Graph) -> dict[str, int]:
    """Each box's stretch: iterations joined by an arrow between non-anchor boxes merge."""
    if not born:
        return {}
    last = max(born.values())
    joined = [False] * (last + 2)     # joined[k]: iteration k belongs with k - 1
    for e in graph.edges.values():
        a, b = born[e.src], born[e.dst]
        if a != b and graph.nodes[e.src].kind not in ANCHORS \
                and graph.nodes[e.dst].kind not in ANCHORS:
            for k in range(min(a, b) + 1, max(a, b) + 1):
                joined[k] = True
    used = set(born.values())
    group, number = [0] * (last + 1), -1
    for k in range(last + 1):   # numbered densely: summarised iterations made no boxes
        if k in used:
            number += not (joined[k] and number >= 0)
        group[k] = max(number, 0)
    return {i: group[k] for i, k in born.items()}


def split_iterations(group_of: dict[str, int], graph: Graph) -> list[Iteration]:
    """The boxes of each stretch, anchors shared with other stretches first; a stretch that
    matches an earlier one box for box reuses its picture."""
    count = max(group_of.values(), default=0) + 1
    shared: set[str] = set()
    near: list[set[str]] = [set() for _ in range(count)]
    for e in graph.edges.values():
        ga, gb = group_of[e.src], group_of[e.dst]
        if ga != gb:
            older, newer = (e.src, gb) if ga < gb else (e.dst, ga)
            shared.add(older)
            near[newer].add(older)
    for g in range(count):   # an AccumulateGrad comes with the leaf it writes into
        near[g] |= {e.src for e in graph.edges.values()
                    if e.kind == "variable" and e.dst in near[g]}
    shared |= set().union(*near)
    out: list[Iteration] = []
    seen: dict[tuple, Iteration] = {}
    for g in range(count):
        first = [i for i in graph.nodes if i in shared and (group_of[i] == g or i in near[g])]
        rest = [i for i in graph.nodes if group_of[i] == g and i not in shared]
        nodes = first + rest
        sig = _signature(nodes, shared, graph)
        earlier = seen.get(sig)
        if earlier is None:
            seen[sig] = it = Iteration(nodes, None, sig)
        else:
            alias = {d: a for d, a in zip(earlier.nodes, nodes) if d != a}
            it = Iteration(earlier.nodes, alias, sig)
        out.append(it)
    return out


def _signature(nodes: list[str], shared: set[str], graph: Graph) -> tuple:
    at = {i: k for k, i in enumerate(nodes)}
    boxes = tuple((i if i in shared else "", n.kind, n.label, n.sublabel, n.rows, n.chars,
                   n.group)
                  for i, n in ((i, graph.nodes[i]) for i in nodes))
    arrows = tuple(sorted((at[e.src], at[e.dst], e.kind, e.count) for e in graph.edges.values()
                          if e.src in at and e.dst in at))
    return boxes, arrows


def subgraph(graph: Graph, nodes: list[str]) -> Graph:
    """The boxes `nodes` (in that order) and the arrows among them."""
    keep = set(nodes)
    sub = Graph()
    sub.nodes = {i: graph.nodes[i] for i in nodes}
    sub.edges = {k: e for k, e in graph.edges.items() if e.src in keep and e.dst in keep}
    sub.groups = graph.groups
    return sub


def shown_at(events: list[dict], group_of: dict[str, int]) -> list[tuple[int, int]]:
    """[(seq, stretch)] each time the stretch on screen changes: a step shows the stretch of
    what it creates, a backward pass the stretch of its first root, an error its node's."""
    out: list[tuple[int, int]] = []
    now = 0
    seen: set[str] = set()
    waiting: int | None = None   # the index in `out` of an elided step waiting for its stretch
    for ev in events:
        ids = created(ev)
        if ev["kind"] == "elided":
            ids = [i for c in ev.get("carried") or [] for i in created(c)]
        elif ev["kind"] == "backward_begin":
            ids = ev.get("roots") or []
        elif ev["kind"] == "error" and ev.get("node"):
            ids = [ev["node"]]
        if ev["kind"] in ("op", "elided"):
            # an in-place op's output is a tensor made earlier (`w -= …` gives `w`), and a
            # summarised stretch may carry tensors already shown: neither takes the picture
            # back to where they were made
            ids = [i for i in ids if i not in seen]
        seen.update(ids)
        known = [group_of[i] for i in ids if i in group_of]
        if known:
            now = known[-1] if ev["kind"] != "backward_begin" else known[0]
            if waiting is not None:
                # a summarised stretch that made nothing new is shown with what comes after
                # it (the end of its last iteration, or the next iteration)
                out[waiting] = (out[waiting][0], now)
                waiting = None
        elif ev["kind"] == "elided" and ev.get("passes"):
            out.append((ev["seq"], now))
            waiting = len(out) - 1
            continue
        if not out or out[-1][1] != now:
            out.append((ev["seq"], now))
    # neighbours with the same stretch, after a waiting one was filled in, are one change
    return [p for k, p in enumerate(out) if k == 0 or out[k - 1][1] != p[1]]
