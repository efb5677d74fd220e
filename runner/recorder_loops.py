"""How many more times a training loop will run: `for epoch in range(...)`, read from the source.

A loop's answer shows its first and last few iterations and summarises the middle
(docs/trace-format.md, section 9). An iteration known to be in the middle needs no detail, only
the loss and the parameters it leaves behind, so the recorder asks `LoopClock.remaining` at each
backward pass how many iterations the loop around it still has to run. It knows only when the
answer is certain from the source and the frame's variables:

- the pass's line is a statement directly in the body of a `for NAME in range(...)` loop (a
  `with` block in between is fine, an `if` is not: every iteration must reach it);
- the body has no `break`, `continue`, `return`, `yield` or `raise`, and assigns neither the
  loop variable nor a name the range's arguments read (so the range evaluated now is the one
  the loop runs over);
- the range's arguments are whole numbers, names holding `int`s, and `+ - * //` of those.

Nothing the program wrote is called: the arguments are evaluated by a small interpreter over
plain ints. Anything else (a `while` loop, a data loader, an early exit) gives None, and the
recorder records every iteration in full as before.

Example:
    >>> import sys
    >>> src = "for i in range(2, n + 3):\\n    f = sys._getframe()\\n"
    >>> env = {"n": 7, "sys": sys}
    >>> exec(compile(src, "main.py", "exec"), env)
    >>> LoopClock(src).remaining(env["f"], 2)   # i == 9 is the last of range(2, 10)
    0
"""
from __future__ import annotations

import ast
import operator

_OPS = {ast.Add: operator.add, ast.Sub: operator.sub, ast.Mult: operator.mul,
        ast.FloorDiv: operator.floordiv}
_EXITS = (ast.Break, ast.Continue, ast.Return, ast.Yield, ast.YieldFrom, ast.Raise)


class LoopClock:
    """Answers `remaining(frame, line)` for the program `source` (parsed on first use)."""

    def __init__(self, source: str) -> None:
        self.source = source
        self._loops: dict | None = None   # line -> the qualifying loop whose body holds it
        self._cache: dict = {}            # (code, line) -> loop or None

    def remaining(self, frame, line) -> int | None:
        """Iterations left after the current one of the loop whose body runs `line` in
        `frame`, or None when that is not certain."""
        if line is None or frame is None:
            return None
        key = (frame.f_code, line)
        loop = self._cache.get(key, False)
        if loop is False:
            loop = self._cache[key] = self._loop_at(frame.f_code, line)
        if loop is None:
            return None
        target, args = loop
        scope = frame.f_locals
        value = scope.get(target)
        if type(value) is not int:
            return None
        bounds = []
        for arg in args:
            v = _evaluate(arg, scope, frame.f_globals)
            if v is None:
                return None
            bounds.append(v)
        if frame.f_globals.get("range", range) is not range or "range" in scope:
            return None
        try:
            steps = range(*bounds)
            return len(steps) - steps.index(value) - 1
        except (TypeError, ValueError):
            return None

    def _loop_at(self, code, line: int):
        """(loop variable, range arguments) of the loop around `line`, in the function (or
        module) that `code` runs, or None."""
        if self._loops is None:
            self._loops = {}
            try:
                tree = ast.parse(self.source)
            except (SyntaxError, ValueError):
                return None
            _collect(tree, self._loops)
        found = self._loops.get(line)
        if found is None:
            return None
        scope_line, loop = found
        if scope_line != (0 if code.co_name == "<module>" else code.co_firstlineno):
            return None
        return loop


def _collect(tree: ast.AST, out: dict) -> None:
    """Map each line of a statement directly in a qualifying loop's body to (the first line
    of the function holding the loop, 0 at module level; (loop variable, range arguments))."""
    stack: list = [(tree, 0)]
    while stack:  # explicit stack: the tree of a long program is deep
        node, scope = stack.pop()
        for child in ast.iter_child_nodes(node):
            inner = scope
            if isinstance(child, (ast.FunctionDef, ast.AsyncFunctionDef)):
                # a decorated function's code starts at its first decorator
                inner = min([child.lineno] + [d.lineno for d in child.decorator_list])
            elif isinstance(child, (ast.Lambda, ast.ClassDef)):
                inner = -1      # no loop of ours runs in there as written
            if isinstance(child, ast.For) and scope >= 0:
                loop = _qualifies(child)
                if loop is not None:
                    for stmt in _direct(child.body):
                        for ln in range(stmt.lineno, (stmt.end_lineno or stmt.lineno) + 1):
                            out.setdefault(ln, (scope, loop))
            stack.append((child, inner))


def _direct(body: list):
    """The statements every run of `body` executes: its own, and those of `with` blocks."""
    for stmt in body:
        if isinstance(stmt, (ast.With, ast.AsyncWith)):
            yield from _direct(stmt.body)
        elif not isinstance(stmt, (ast.If, ast.For, ast.While, ast.Try, ast.Match,
                                   ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            yield stmt


def _qualifies(loop: ast.For):
    it = loop.iter
    if not (isinstance(loop.target, ast.Name) and isinstance(it, ast.Call)
            and isinstance(it.func, ast.Name) and it.func.id == "range"
            and 1 <= len(it.args) <= 3 and not it.keywords and not loop.orelse):
        return None
    if not all(_simple(a) for a in it.args):
        return None
    read = {n.id for a in it.args for n in ast.walk(a) if isinstance(n, ast.Name)}
    read.add(loop.target.id)
    for body_stmt in loop.body:
        for n in ast.walk(body_stmt):
            if isinstance(n, _EXITS) or isinstance(n, (ast.Global, ast.Nonlocal)):
                return None
            if isinstance(n, ast.Name) and not isinstance(n.ctx, ast.Load) and n.id in read:
                return None
    return loop.target.id, tuple(it.args)


def _simple(node: ast.AST) -> bool:
    if isinstance(node, ast.Constant):
        return type(node.value) is int
    if isinstance(node, ast.Name):
        return True
    if isinstance(node, ast.UnaryOp):
        return isinstance(node.op, ast.USub) and _simple(node.operand)
    if isinstance(node, ast.BinOp):
        return type(node.op) in _OPS and _simple(node.left) and _simple(node.right)
    return False


def _evaluate(node: ast.AST, scope: dict, globs: dict) -> int | None:
    """The value of a `_simple` expression over plain ints, or None."""
    if isinstance(node, ast.Constant):
        return node.value if type(node.value) is int else None
    if isinstance(node, ast.Name):
        v = scope.get(node.id, globs.get(node.id))
        return v if type(v) is int else None
    if isinstance(node, ast.UnaryOp):
        v = _evaluate(node.operand, scope, globs)
        return None if v is None else -v
    if not isinstance(node, ast.BinOp):
        return None
    left = _evaluate(node.left, scope, globs)
    right = _evaluate(node.right, scope, globs)
    if left is None or right is None or (isinstance(node.op, ast.FloorDiv) and right == 0):
        return None
    return _OPS[type(node.op)](left, right)
