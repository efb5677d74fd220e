"""Report how the engine's modules import one another: the strongly connected groups of the
import graph, counted twice, once with only the imports a module runs when it loads (the top
level) and once with the imports placed inside functions as well.

    python dev/import_cycles.py            # engine/
    python dev/import_cycles.py runner     # any package of the checkout

A group of more than one module is a cycle. docs/architecture.md says which cycle the engine
has on purpose and where its line is; this script is how that claim is checked. It reads the
source with `ast`, imports nothing, and counts `from . import x`, `from .x import y`,
`import engine.x` and their absolute spellings.
"""
from __future__ import annotations

import ast
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def module_name(path: Path) -> str:
    parts = list(path.relative_to(ROOT).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def resolve(current: str, is_package: bool, level: int, target: str | None) -> str:
    """The absolute module a relative import in `current` names."""
    base = current.split(".")
    if not is_package:
        base = base[:-1]
    if level > 1:
        base = base[: len(base) - (level - 1)]
    return ".".join(base + ([target] if target else []))


def imports(path: Path, package: str, known: set[str]) -> tuple[set[str], set[str], int]:
    """The modules of `package` that `path` imports at its top level, those it imports only
    inside functions, and how many import statements inside functions name them."""
    name = module_name(path)
    is_package = path.name == "__init__.py"
    top: set[str] = set()
    inner: set[str] = set()
    statements = 0

    def innermost(dotted: str) -> str:
        while dotted and dotted not in known:
            dotted = dotted.rpartition(".")[0]
        return dotted

    def names(node: ast.Import | ast.ImportFrom) -> set[str]:
        if isinstance(node, ast.Import):
            found = {innermost(a.name) for a in node.names}
        else:
            base = (resolve(name, is_package, node.level, node.module) if node.level
                    else node.module or "")
            # `from . import x` names the module x when there is one; `from .m import y`
            # names m, or the module m.y
            found = {innermost(base + "." + a.name) for a in node.names}
        return {n for n in found if n and n.split(".")[0] == package and n != name}

    def visit(node: ast.AST, in_function: bool) -> None:
        for child in ast.iter_child_nodes(node):
            if isinstance(child, (ast.Import, ast.ImportFrom)):
                found = names(child)
                (inner if in_function else top).update(found)
                if in_function and found:
                    nonlocal statements
                    statements += 1
            visit(child, in_function or isinstance(child, (ast.FunctionDef,
                                                          ast.AsyncFunctionDef, ast.Lambda)))

    visit(ast.parse(path.read_text(), str(path)), False)
    return top, inner - top, statements


def strongly_connected(graph: dict[str, set[str]]) -> list[list[str]]:
    """Tarjan's algorithm, iterative (the engine's graph is deep enough to matter)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    groups = []
    for start in sorted(graph):
        if start in index:
            continue
        work = [(start, iter(sorted(graph[start])))]
        index[start] = low[start] = len(index)
        stack.append(start)
        on_stack.add(start)
        while work:
            node, children = work[-1]
            for child in children:
                if child not in index:
                    index[child] = low[child] = len(index)
                    stack.append(child)
                    on_stack.add(child)
                    work.append((child, iter(sorted(graph.get(child, ())))))
                    break
                if child in on_stack:
                    low[node] = min(low[node], index[child])
            else:
                work.pop()
                if work:
                    low[work[-1][0]] = min(low[work[-1][0]], low[node])
                if low[node] == index[node]:
                    group = []
                    while True:
                        member = stack.pop()
                        on_stack.discard(member)
                        group.append(member)
                        if member == node:
                            break
                    groups.append(sorted(group))
    return groups


def main(package: str = "engine") -> None:
    files = sorted((ROOT / package).rglob("*.py"))
    known = {module_name(f) for f in files}
    top: dict[str, set[str]] = {}
    inner: dict[str, set[str]] = {}
    statements = 0
    for f in files:
        top[module_name(f)], inner[module_name(f)], n = imports(f, package, known)
        statements += n
    both = {m: top[m] | inner[m] for m in known}
    n_inner = sum(len(v) for v in inner.values())
    print(f"{len(known)} modules in {package}/: {sum(len(v) for v in top.values())} "
          f"module pairs imported at the top level, {n_inner} more only inside functions "
          f"({statements} import statements inside functions)")
    for label, graph in (("top-level imports only", top), ("with imports inside functions",
                                                             both)):
        cycles = [g for g in strongly_connected(graph) if len(g) > 1]
        sizes = sorted((len(g) for g in cycles), reverse=True)
        print(f"\n{label}: {len(cycles)} cycle(s), sizes {sizes or '-'}")
        for g in cycles:
            shown = ", ".join(m.removeprefix(package + ".") for m in g[:12])
            print(f"  {len(g)} modules: {shown}{', ...' if len(g) > 12 else ''}")


if __name__ == "__main__":
    main(*sys.argv[1:])
