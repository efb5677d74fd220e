"""Modules as groups: each box goes into the `nn.Module` call it was made in.

The trace's `scopes` (docs/trace-format.md) give every module call the ranges of tensor and
node ids made during it; a box belongs to the innermost call whose range holds its id.
A module called once between two backward passes is keyed by its path, so a module called in
every iteration of a training loop is one group of each iteration's picture. A module called
several times before one backward (an RNN cell in a `for t in range(3)` loop) gets a group per
call, `rnn @ t=2` (or `rnn #2` outside a loop of the program): two calls never share a box, so
the picture stays acyclic as the graph is. A recurrent layer's time steps are scopes inside its
call (`rnn.l0 @ t=2`), grouped the same way. The layout draws a group as a Graphviz cluster,
nested as the modules are, labelled like `model[0] · Linear(4 → 8)`.

Three kinds of box stay outside the calls their ids fall in:
- a tensor the program named (`out = model(x)`, `loss = loss_fn(out, target)`) sits in the
  innermost group holding both the op that made it and every op that used it, so the value
  the learner bound is a box of its own, not a box hidden in a folded module;
- the AccumulateGrad of a plain leaf (not a parameter) sits with its leaf, outside: a custom
  Function that first meets `x` does not own `x`'s AccumulateGrad.

Example:
    >>> module_label({"path": "model[0]", "type": "Linear",
    ...               "extra": "in_features=4, out_features=8, bias=True"})
    'model[0] · Linear(4 → 8)'
"""
from __future__ import annotations

import bisect
import re

from gradstep.app.services.graph import Graph
from gradstep.app.services.trace_ops import op_events

_FEATURES = re.compile(r"in_features=(\d+), out_features=(\d+)")


def module_label(scope: dict, key: str | None = None) -> str:
    """What the group's frame says: the path (with its call, `rnn @ t=2`), then the class
    and its sizes."""
    sizes = _FEATURES.search(scope["extra"])
    if sizes:
        kind = f"{scope['type']}({sizes.group(1)} → {sizes.group(2)})"
    elif scope["extra"] and len(scope["extra"]) <= 24:
        kind = f"{scope['type']}({scope['extra']})"
    else:
        kind = scope["type"]
    key = key or scope["path"]
    return kind if key == scope["type"] else f"{key} · {kind}"


# what tells a checkpoint's rerun (and the calls inside it) from the forward it repeats
RERUN_MARK = "↻"


def call_keys(scopes: list[dict]) -> list[str]:
    """Each call's group key: its path, or `path @ t=2` / `path #2` when the same module is
    called more than once between two backward passes, or `path ↻` for a checkpoint's rerun
    inside backward (calls inside such a call inherit its suffix)."""
    parent_of = _parent_calls(scopes)
    order = sorted(range(len(scopes)), key=lambda i: (scopes[i]["t"][0], scopes[i]["n"][0],
                                                      -scopes[i]["t"][1]))
    keys: list[str] = [""] * len(scopes)
    suffix: list[str] = [""] * len(scopes)
    siblings: dict[tuple, list[int]] = {}
    for i in order:         # outer calls start first: a parent's key is known before its child's
        s = scopes[i]
        up = parent_of[i]
        where = s.get("pass")
        # calls inside one call of the parent are told apart by the parent's call; calls at
        # the top by the backward passes begun before them
        siblings.setdefault((s["path"], up, where if up is None and where is not None
                             else -1 - i if up is None else 0), []).append(i)
    for calls in siblings.values():
        if len(calls) > 1:
            for k, i in enumerate(calls, 1):
                at = scopes[i].get("at")
                suffix[i] = f"@ {at}" if at else f"#{k}"
    for i, s in enumerate(scopes):
        if s.get("recompute"):
            # checkpoint's rerun inside backward: its modules are the forward's modules
            # called again, and must not share the forward calls' groups
            suffix[i] = (suffix[i] + " " + RERUN_MARK).strip()
    for i in order:
        up = parent_of[i]
        own = suffix[i] or (suffix[up] if up is not None else "")
        suffix[i] = own
        keys[i] = f"{scopes[i]['path']} {own}" if own else scopes[i]["path"]
    return keys


def _parent_calls(scopes: list[dict]) -> list[int | None]:
    """The index of the call around each call (the nearest later-ending call of its parent's
    path whose ranges hold it), or None."""
    out: list[int | None] = []
    for i, s in enumerate(scopes):
        found = None
        if s["parent"] is not None:
            for j in range(i + 1, len(scopes)):
                p = scopes[j]
                if p["path"] == s["parent"] and p["t"][0] <= s["t"][0] and \
                        s["t"][1] <= p["t"][1] and p["n"][0] <= s["n"][0] and \
                        s["n"][1] <= p["n"][1]:
                    found = j
                    break
        out.append(found)
    return out


def assign_groups(trace: dict, graph: Graph) -> dict[str, dict]:
    """Set each box's `group` (a call's key, or "" outside any module) and return the
    groups: key -> {"label", "parent", "user"}, and `"step": true` for a recurrent layer's
    time step."""
    scopes = trace.get("scopes") or []
    keys = call_keys(scopes)
    parent_of = _parent_calls(scopes)
    info: dict[str, dict] = {}
    for i, s in enumerate(scopes):
        up = parent_of[i]
        parent = keys[up] if up is not None else s["parent"]
        entry = info.setdefault(keys[i], {"label": module_label(s, keys[i]), "parent": parent,
                                          "user": s["user"]})
        if s.get("step"):
            entry["step"] = True    # a recurrent layer's time step: part of the layer's call
    break_cycles(info)
    for letter in ("t", "n"):
        calls = sorted((s[letter][0], -s[letter][1], keys[i]) for i, s in enumerate(scopes)
                       if s[letter][1] > s[letter][0])
        starts = [c[0] for c in calls]
        for node in graph.nodes.values():
            if node.id[0] != letter or not node.id[1:].isdigit():
                continue
            k = int(node.id[1:])
            # calls nest, so the innermost holding k is the last one starting at or before k
            # that has not ended
            at = bisect.bisect_right(starts, k) - 1
            while at >= 0 and -calls[at][1] <= k:
                at -= 1
            if at >= 0:
                node.group = calls[at][2]
    _leaf_accumulators_out(graph)
    _accumulators_out_of_steps(graph, {k: g["parent"] for k, g in info.items()
                                       if g.get("step")})
    _named_results_out(trace, graph, info)
    return info


def _leaf_accumulators_out(graph: Graph) -> None:
    """The AccumulateGrad of a leaf that is no module's parameter sits with its leaf."""
    for e in graph.edges.values():
        if e.kind == "variable" and e.dst in graph.nodes and e.src in graph.nodes \
                and graph.nodes[e.src].kind == "leaf":
            graph.nodes[e.dst].group = graph.nodes[e.src].group


def _accumulators_out_of_steps(graph: Graph, steps: dict[str, str | None]) -> None:
    """A parameter's AccumulateGrad is made when a recurrent layer's first step uses the
    parameter, but every step sends it gradient: it sits in the layer's group, not the
    first step's (`steps` maps each step's group to the group around it)."""
    if not steps:
        return
    for e in graph.edges.values():
        if e.kind == "variable" and e.dst in graph.nodes:
            node = graph.nodes[e.dst]
            seen = 0
            while node.group in steps and seen < len(steps):
                node.group = steps[node.group] or ""
                seen += 1


def _chain(key: str, info: dict[str, dict]) -> list[str]:
    out = []
    while key and key in info and key not in out:
        out.append(key)
        key = info[key]["parent"] or ""
    return out


def _named_results_out(trace: dict, graph: Graph, info: dict[str, dict]) -> None:
    """Move each named result into the innermost group that holds the op that made it and
    every op that used it (none used it: outside every group)."""
    named = {i for i, n in graph.nodes.items() if n.named and n.kind == "tensor" and n.group}
    if not named:
        return
    made_in = {i: n.group for i, n in graph.nodes.items()}    # before any box moves
    users: dict[str, list[str]] = {i: [] for i in named}
    for ev in op_events(trace["events"]):
        out = ev["output"]["id"]
        for src in ev["inputs"]:
            if isinstance(src, str) and src in users and src != out:
                users[src].append(out)
    for tid in named:
        node = graph.nodes[tid]
        common = _chain(node.group, info)
        for u in users[tid]:
            around = set(_chain(made_in.get(u, ""), info))
            common = [k for k in common if k in around]
        if not users[tid]:
            common = []
        node.group = common[0] if common else ""


def break_cycles(groups: dict[str, dict]) -> None:
    """Make every parent chain end: a group whose chain comes back to itself is drawn at the
    top level instead. The recorder never nests a call in itself, but groups merge calls by
    path (two calls may disagree about what is around them) and a trace may be forged; the
    layout and the page walk these chains.

    Example:
        >>> g = {"a": {"parent": "b"}, "b": {"parent": "a"}, "c": {"parent": "c"}}
        >>> break_cycles(g); [(k, v["parent"]) for k, v in g.items()]
        [('a', 'b'), ('b', None), ('c', None)]
    """
    done: set[str] = set()
    for start in groups:
        chain: list[str] = []
        on_chain: set[str] = set()
        path = start
        while path in groups and path not in done and path not in on_chain:
            chain.append(path)
            on_chain.add(path)
            path = groups[path]["parent"]
        if path in on_chain:        # back on the chain: cut the edge that closes the loop
            groups[chain[-1]]["parent"] = None
        done.update(chain)
