"""Size report: the soft size budgets of docs/style.md checked.

    python dev/sz.py [--all]

Counts lines of code (not blank, not comment-only) per file and per function, and lists what is
over its budget: core engine files 300, `engine/ops/` files 400, other Python modules 600,
JS modules 300, functions 30 (route functions in `app/routers/` 20). Also prints the median
function length, which the style wants under 10. A report, not a gate: readability wins over
line count, so a file over budget is a prompt to look for a seam, not a failure. `--all` lists
every file.
"""
from __future__ import annotations

import argparse
import ast
import statistics
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
PACKAGES = ("engine", "runner", "app", "bench", "dev")
CORE = {"engine/tensor.py", "engine/graph.py", "engine/autograd/__init__.py"}
FUNCTION_BUDGET, ROUTE_BUDGET = 30, 20


def file_budget(rel: str) -> int:
    """The soft line budget of the file at `rel` (a path relative to the repository)."""
    if rel in CORE:
        return 300
    if rel.startswith("engine/ops/"):
        return 400
    if rel.endswith(".js"):
        return 300
    return 600


def code_lines(text: str, comment: str) -> set[int]:
    """1-based numbers of the lines that hold code: not blank, not only a comment."""
    return {i for i, line in enumerate(text.splitlines(), 1)
            if line.strip() and not line.strip().startswith(comment)}


def functions(tree: ast.AST, lines: set[int]):
    """(qualified name, code lines) of every function and method in `tree`."""
    def walk(node, prefix):
        for child in ast.iter_child_nodes(node):
            if isinstance(child, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
                name = f"{prefix}{child.name}"
                if not isinstance(child, ast.ClassDef):
                    span = range(child.lineno, child.end_lineno + 1)
                    yield name, sum(1 for i in span if i in lines)
                yield from walk(child, name + ".")
    yield from walk(tree, "")


def sources():
    """Every Python file of the packages and every JS module of static/js."""
    for package in PACKAGES:
        yield from sorted((ROOT / package).rglob("*.py"))
    yield from sorted((ROOT / "static" / "js").glob("*.js"))


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--all", action="store_true", help="list every file, not only the over")
    args = parser.parse_args(argv)
    over_files, over_funcs, lengths = [], [], []
    for path in sources():
        rel = path.relative_to(ROOT).as_posix()
        text = path.read_text(encoding="utf-8")
        lines = code_lines(text, "//" if rel.endswith(".js") else "#")
        budget = file_budget(rel)
        if args.all or len(lines) > budget:
            over_files.append((rel, len(lines), budget))
        if rel.endswith(".py"):
            limit = ROUTE_BUDGET if rel.startswith("app/routers/") else FUNCTION_BUDGET
            for name, n in functions(ast.parse(text), lines):
                lengths.append(n)
                if n > limit:
                    over_funcs.append((rel, name, n, limit))
    print(f"{'file':<48} {'code lines':>10} {'budget':>7}")
    for rel, n, budget in sorted(over_files, key=lambda r: r[1] - r[2], reverse=True):
        print(f"{rel:<48} {n:>10} {budget:>7}{'  over' if n > budget else ''}")
    print(f"\n{len(over_funcs)} of {len(lengths)} functions over their budget; median length "
          f"{statistics.median(lengths):g} lines (the style wants under 10)")
    for rel, name, n, limit in sorted(over_funcs, key=lambda r: r[2], reverse=True)[:25]:
        print(f"  {n:>4} > {limit}  {rel}:{name}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
