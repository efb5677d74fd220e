"""How the layers' modules import one another, and the checks `./dev.sh lint` makes of it.

    python dev/import_cycles.py            # the report for engine/
    python dev/import_cycles.py runner     # for another layer
    python dev/import_cycles.py --check    # layering and ratchet; non-zero on a violation
    python dev/import_cycles.py --doc      # the figures docs/architecture.md prints

It reads the source with `ast` and imports nothing. Code imports the layers by their installed
names, `gradstep.engine`, `gradstep.runner`, `gradstep.app` (the folders engine/, runner/,
app/ map there); relative imports and the bare names `engine.x`, `runner.x`, `app.x` are read
as the same modules. Imports under `if TYPE_CHECKING:` never run and count as neither kind.

The report counts each layer's strongly connected groups twice: once with only the imports a
module runs when it loads (the top level), once with the imports placed inside functions as
well. A group of more than one module is a cycle. docs/architecture.md says which cycle the
engine has on purpose and where its line is.

`--check` fails (exit 1) when
- a module imports a higher layer (engine <- runner <- app <- gradstep: each may import only
  the layers to its left), at any level, `TYPE_CHECKING` included;
- a layer has more modules in load-time cycles, or more import statements inside functions,
  than dev/import_ratchet.json allows. When a figure shrinks, lower it there.
"""
from __future__ import annotations

import argparse
import ast
import functools
import json
import sys
from dataclasses import dataclass, field
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
LAYERS = ("engine", "runner", "app")          # lowest first; gradstep/ sits above them all
RATCHET = "dev/import_ratchet.json"


def module_name(path: Path, root: Path) -> str:
    parts = list(path.relative_to(root).with_suffix("").parts)
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


def checkout_name(dotted: str) -> str:
    """`gradstep.engine.x` -> `engine.x`: the name of the module by its folder here."""
    head, _, rest = dotted.partition(".")
    if head == "gradstep" and rest.split(".")[0] in LAYERS:
        return rest
    return dotted


def is_type_checking(test: ast.expr) -> bool:
    return ((isinstance(test, ast.Name) and test.id == "TYPE_CHECKING")
            or (isinstance(test, ast.Attribute) and test.attr == "TYPE_CHECKING"))


@dataclass
class Imports:
    """The project modules one file imports, by when the import runs."""

    top: set[str] = field(default_factory=set)       # when the module loads
    inner: set[str] = field(default_factory=set)     # only inside functions
    typing: set[str] = field(default_factory=set)    # only under `if TYPE_CHECKING:`
    in_functions: list[set[str]] = field(default_factory=list)   # per statement in a function
    lines: dict[str, int] = field(default_factory=dict)   # a line naming each module


@functools.cache     # the layering check and the ratchet read each file once between them
def read_imports(path: Path, root: Path) -> Imports:
    """Every import of `path` that names a module of the checkout (any layer, or gradstep)."""
    name = module_name(path, root)
    is_package = path.name == "__init__.py"
    found = Imports()

    def named(node: ast.Import | ast.ImportFrom) -> set[str]:
        if isinstance(node, ast.Import):
            targets = {checkout_name(a.name) for a in node.names}
        else:
            base = (resolve(name, is_package, node.level, node.module) if node.level
                    else checkout_name(node.module or ""))
            # `from . import x` names the module x when there is one; `from .m import y`
            # names m, or the module m.y (read_layer keeps the longest that is a module)
            targets = {checkout_name(f"{base}.{a.name}") for a in node.names}
        return {t for t in targets
                if t.split(".")[0] in (*LAYERS, "gradstep") and t != name}

    def visit(node: ast.AST, in_function: bool, typing_only: bool) -> None:
        for child in ast.iter_child_nodes(node):
            if isinstance(child, (ast.Import, ast.ImportFrom)):
                targets = named(child)
                bucket = (found.typing if typing_only else
                          found.inner if in_function else found.top)
                bucket.update(targets)
                for t in targets:
                    found.lines.setdefault(t, child.lineno)
                if in_function and not typing_only and targets:
                    found.in_functions.append(targets)
            guarded = isinstance(child, ast.If) and is_type_checking(child.test)
            if guarded:    # the body never runs; its `else:` does
                visit(ast.Module(body=child.body, type_ignores=[]), in_function, True)
                visit(ast.Module(body=child.orelse, type_ignores=[]), in_function,
                      typing_only)
                continue
            visit(child, in_function or isinstance(
                child, (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda)), typing_only)

    visit(ast.parse(path.read_text(encoding="utf-8"), str(path)), False, False)
    return found


def innermost(dotted: str, known: set[str]) -> str:
    while dotted and dotted not in known:
        dotted = dotted.rpartition(".")[0]
    return dotted


def own_modules(names: set[str], known: set[str], current: str) -> set[str]:
    """The modules of one layer (`known`) that the imported `names` are, but `current`."""
    return {n for n in (innermost(t, known) for t in names) if n and n != current}


def layer_of(module: str, root: Path) -> int:
    """The layer `module` belongs to, by index in LAYERS; len(LAYERS) for gradstep's own
    modules (`gradstep.__main__`), -1 for the `gradstep` package itself (its __init__ holds
    the version, which every layer may read)."""
    head, _, rest = module.partition(".")
    if head in LAYERS:
        return LAYERS.index(head)
    top = root / "gradstep" / rest.split(".")[0]
    return len(LAYERS) if rest and (top.with_suffix(".py").is_file() or top.is_dir()) else -1


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


@dataclass
class Layer:
    """One layer's import graph, restricted to its own modules."""

    name: str
    modules: set[str]
    top: dict[str, set[str]]
    inner: dict[str, set[str]]
    statements: int

    def cycles(self, with_functions: bool) -> list[list[str]]:
        graph = ({m: self.top[m] | self.inner[m] for m in self.modules} if with_functions
                 else self.top)
        return [g for g in strongly_connected(graph) if len(g) > 1]

    def figures(self) -> dict[str, int]:
        load = self.cycles(False)
        return {"load_time_cycles": len(load),
                "modules_in_load_time_cycles": sum(len(g) for g in load),
                "function_level_imports": self.statements}


def files_of(root: Path, layer: str) -> list[Path]:
    return sorted((root / layer).rglob("*.py")) if (root / layer).is_dir() else []


def read_layer(root: Path, layer: str) -> Layer:
    files = files_of(root, layer)
    known = {module_name(f, root) for f in files}
    top: dict[str, set[str]] = {}
    inner: dict[str, set[str]] = {}
    statements = 0
    for f in files:
        found = read_imports(f, root)
        m = module_name(f, root)
        top[m] = own_modules(found.top, known, m)
        inner[m] = own_modules(found.inner, known, m) - top[m]
        statements += sum(1 for targets in found.in_functions
                          if own_modules(targets, known, m))
    return Layer(layer, known, top, inner, statements)


def layering_violations(root: Path) -> list[str]:
    """`file:line: engine.x imports runner.y` for each import of a higher layer."""
    problems = []
    for layer in LAYERS:
        for f in files_of(root, layer):
            found = read_imports(f, root)
            for target in sorted(found.top | found.inner | found.typing):
                if layer_of(target, root) > LAYERS.index(layer):
                    rel = f.relative_to(root)
                    problems.append(f"{rel}:{found.lines[target]}: the {layer} layer imports "
                                    f"{target} (layers depend one way: "
                                    f"{' <- '.join((*LAYERS, 'gradstep'))})")
    return problems


def ratchet_violations(root: Path, ratchet_path: Path) -> tuple[list[str], list[str]]:
    """(figures that grew past the ratchet, figures that shrank below it)."""
    allowed = json.loads(ratchet_path.read_text(encoding="utf-8"))
    grew, shrank = [], []
    for layer in LAYERS:
        now = read_layer(root, layer).figures()
        for key, value in now.items():
            limit = allowed.get(layer, {}).get(key)
            if limit is None or value > limit:
                grew.append(f"{layer}: {key.replace('_', ' ')} is {value}, {RATCHET} allows "
                            f"{limit}")
            elif value < limit:
                shrank.append(f"{layer}: {key.replace('_', ' ')} fell to {value} (from "
                              f"{limit}); lower it in {RATCHET}")
    return grew, shrank


def check(root: Path) -> int:
    problems = layering_violations(root)
    grew, shrank = ratchet_violations(root, root / RATCHET)
    for line in problems + grew:
        print(line)
    for line in shrank:
        print("note:", line)
    if problems or grew:
        if grew:
            print("A module-level import that climbs back up, or an import inside a function "
                  "to dodge a cycle, is what the ratchet stops: docs/architecture.md says "
                  "where the engine's line is.")
        return 1
    print(f"imports: layers depend one way ({' <- '.join(LAYERS)}); cycles within "
          f"{RATCHET}")
    return 0


def doc_figures(root: Path) -> str:
    """The paragraph docs/architecture.md prints, from the engine's graph as it is."""
    engine = read_layer(root, "engine")
    load = sorted(engine.cycles(False), key=len, reverse=True)
    both = max(engine.cycles(True), key=len, default=[])
    sizes = ", ".join(str(len(g)) for g in load)
    return (f"engine/ has {len(engine.modules)} modules. Counting only the imports a module "
            f"runs when it loads, {len(load)} groups form cycles ({sizes} modules); counting "
            f"the imports inside functions as well, {len(both)} modules form one cycle, held "
            f"by {engine.statements} import statements inside functions.")


def report(root: Path, layer: str) -> None:
    graph = read_layer(root, layer)
    n_top = sum(len(v) for v in graph.top.values())
    n_inner = sum(len(v) for v in graph.inner.values())
    print(f"{len(graph.modules)} modules in {layer}/: {n_top} module pairs imported at the top "
          f"level, {n_inner} more only inside functions ({graph.statements} import "
          f"statements inside functions)")
    for label, with_functions in (("top-level imports only", False),
                                  ("with imports inside functions", True)):
        cycles = graph.cycles(with_functions)
        sizes = sorted((len(g) for g in cycles), reverse=True)
        print(f"\n{label}: {len(cycles)} cycle(s), sizes {sizes or '-'}")
        for g in cycles:
            shown = ", ".join(m.removeprefix(layer + ".") for m in g[:12])
            print(f"  {len(g)} modules: {shown}{', ...' if len(g) > 12 else ''}")


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("layer", nargs="?", default="engine", choices=LAYERS)
    ap.add_argument("--check", action="store_true", help="layering and ratchet; exit 1 on a "
                    "violation")
    ap.add_argument("--doc", action="store_true", help="print the figures the docs quote")
    ap.add_argument("--root", type=Path, default=ROOT, help="the checkout (default: this one)")
    args = ap.parse_args(argv)
    if args.check:
        return check(args.root)
    if args.doc:
        print(doc_figures(args.root))
        return 0
    report(args.root, args.layer)
    return 0


if __name__ == "__main__":
    sys.exit(main())
