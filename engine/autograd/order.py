"""Graph order for the backward walk: dependency counts and pruning to the wanted inputs.

Both are explicit-stack traversals, never recursion: a 100,000-op chain would overflow
Python's recursion limit (micrograd's recursive `build_topo` does, on long chains).
"""
from __future__ import annotations


def collect(starts: list, targets) -> tuple:
    """Dependency counts for every node reachable from `starts` (an explicit stack, because a
    100,000-op chain would overflow Python's recursion limit). With `targets`, keep only nodes
    that lead to one, so unrelated branches are neither run nor freed."""
    deps: dict = {}
    stack = [n for n in starts if n is not None]
    if len(stack) > 1:  # a root listed twice (autograd.grad([y, y], x)): its edges count once
        stack = list(dict.fromkeys(stack))
    starts = set(stack)
    order = [] if targets is not None else None     # only pruning needs the visiting order
    while stack:
        node = stack.pop()
        if order is not None:
            order.append(node)
        for fn in node._fns:      # NOTE [edges without tuples] in graph.py
            if fn is None:
                continue
            if fn in deps:
                deps[fn] += 1
            else:                  # met for the first time: walk it (unless it is a start)
                deps[fn] = 1
                if fn not in starts:
                    stack.append(fn)
    useful = None
    if targets is not None:
        useful = _leading_to(order, targets)
        deps = {}
        for node in order:
            if node in useful:
                for fn in node._fns:
                    if fn in useful:
                        deps[fn] = deps.get(fn, 0) + 1
    return deps, useful


def _leading_to(order: list, targets: set) -> set:
    """Nodes from which some target is reachable (children before parents, iteratively)."""
    useful = set()
    children_first = _topo(order)
    for node in children_first:
        if node in targets or any(fn in useful for fn in node._fns):
            useful.add(node)
    return useful


def _topo(nodes: list) -> list:
    """Nodes ordered so every node comes after all of its next_functions (iterative DFS)."""
    out, done = [], set()
    for start in nodes:
        if start in done:
            continue
        stack = [(start, iter(start._fns))]
        done.add(start)
        while stack:
            node, it = stack[-1]
            for fn in it:
                if fn is not None and fn not in done:
                    done.add(fn)
                    stack.append((fn, iter(fn._fns)))
                    break
            else:
                stack.pop()
                out.append(node)
    return out
