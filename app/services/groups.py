"""Modules as groups: each box goes into the `nn.Module` call it was made in.

The trace's `scopes` (docs/trace-format.md) give every module call the ranges of tensor and
node ids made during it; a box belongs to the innermost call whose range holds its id.
Groups are keyed by module path, so a module called in every iteration is one group of each
iteration's picture. The layout draws a group as a Graphviz cluster, nested as the modules
are, labelled like `model[0] · Linear(4 → 8)`.

Example:
    >>> module_label({"path": "model[0]", "type": "Linear",
    ...               "extra": "in_features=4, out_features=8, bias=True"})
    'model[0] · Linear(4 → 8)'
"""
from __future__ import annotations

import bisect
import re

from gradstep.app.services.graph import Graph

_FEATURES = re.compile(r"in_features=(\d+), out_features=(\d+)")


def module_label(scope: dict) -> str:
    """What the group's frame says: the path, then the class and its sizes."""
    sizes = _FEATURES.search(scope["extra"])
    if sizes:
        kind = f"{scope['type']}({sizes.group(1)} → {sizes.group(2)})"
    elif scope["extra"] and len(scope["extra"]) <= 24:
        kind = f"{scope['type']}({scope['extra']})"
    else:
        kind = scope["type"]
    return kind if scope["path"] == scope["type"] else f"{scope['path']} · {kind}"


def assign_groups(trace: dict, graph: Graph) -> dict[str, dict]:
    """Set each box's `group` (a module path, or "" outside any module) and return the
    groups: path -> {"label", "parent", "user"}."""
    scopes = trace.get("scopes") or []
    info: dict[str, dict] = {}
    for s in scopes:
        info.setdefault(s["path"], {"label": module_label(s), "parent": s["parent"],
                                    "user": s["user"]})
    break_cycles(info)
    for letter in ("t", "n"):
        calls = sorted((s[letter][0], -s[letter][1], s["path"]) for s in scopes
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
    return info


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
