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
- the range's arguments are whole numbers, names holding `int`s, and `+ - * //` of those;
- or the line is directly in such a loop that is itself directly in the body of another
  (`for epoch in range(n):` around `for start in range(0, N, batch):`), whose body assigns
  no name the inner range reads and whose variable the inner range does not read: every
  outer iteration then runs the same inner range, and what is left is the inner loop's rest
  and the inner loop's length for every outer iteration left.

Nothing the program wrote is called: the arguments are evaluated only once every name they
read holds a plain int, with no builtins, so the operators are int's own. Anything else (a
`while` loop, a data loader, an early exit) gives None, and the recorder records every
iteration in full.

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

_OPS = (ast.Add, ast.Sub, ast.Mult, ast.FloorDiv)
_EXITS = (ast.Break, ast.Continue, ast.Return, ast.Yield, ast.YieldFrom, ast.Raise)
_EXITS_OR_SCOPE = _EXITS + (ast.Global, ast.Nonlocal)


class LoopClock:
    """Answers `remaining(frame, line)` for the program `source` (parsed on first use).

    NOTE [counting down]: reading a function frame's variables (`f_locals`) builds a dict of
    them, and with the range's evaluation that was a tenth of a short loop's traced time per
    pass. A statement directly in a counted loop's body runs exactly once per iteration, so
    when the pass comes from the same frame and the same instruction as the last answered
    one, the loop has advanced by one and the answer is the last one less one. Every way
    for that to be wrong leaves the loop early (an exception caught outside it, the loop
    run anew in the same frame), where more iterations are left than counted, never fewer;
    and the answer is read afresh once the count falls to `exact_below`, where the caller's
    decision can turn on it (the recorder passes the iterations its tail shows, plus two).
    """

    def __init__(self, source: str, exact_below: int = 0) -> None:
        self.source = source
        self.exact_below = exact_below
        self._loops: dict | None = None   # line -> the qualifying loop whose body holds it
        self._tree: ast.Module | bool | None = None   # parsed on first use; False: no parse
        self._cache: dict = {}            # id(code) -> (code, {line -> loop or None})
        # (id of the frame, its f_lasti, the answer) of the last pass answered with a count
        self._last: tuple | None = None

    def remaining(self, frame, line=None) -> int | None:
        """Iterations left after the current one of the loop whose body runs `line` in
        `frame` (by default the line it is at), or None when that is not certain."""
        if frame is None:
            return None
        last, at = self._last, frame.f_lasti
        if last is not None and last[0] == id(frame) and last[1] == at \
                and last[2] > self.exact_below:
            self._last = (last[0], at, last[2] - 1)
            return last[2] - 1
        if line is None:    # asked only here: a frame works its line out from its code
            line = frame.f_lineno
            if line is None:
                return None
        left = self._count(frame, line)
        self._last = None if left is None else (id(frame), at, left)
        return left

    def _count(self, frame, line) -> int | None:
        """remaining(), read from the frame's variables."""
        code = frame.f_code
        # by the code's id (hashing a code object hashes its bytecode); the entry keeps the
        # code alive, so no other code object can come to have that id
        entry = self._cache.get(id(code))
        if entry is None:
            entry = self._cache[id(code)] = (code, {})
        loops: dict = entry[1]
        if line not in loops:
            loops[line] = self._loop_at(code, line)
        loop = loops[line]
        if loop is None:
            return None
        scope = frame.f_locals
        globs = frame.f_globals
        if len(loop) == 2:          # a loop in a loop: (outer, inner)
            outer, inner = (_left(part, scope, globs) for part in loop)
            if outer is None or inner is None:
                return None
            return inner[0] + outer[0] * inner[1]
        left = _left(loop, scope, globs)
        return None if left is None else left[0]

    def tree(self) -> ast.Module | None:
        """The program's syntax tree, parsed once for the clock and for the recorder's module
        scopes (runner/recorder_scopes.py), or None when the source does not parse."""
        if self._tree is None:
            try:
                self._tree = ast.parse(self.source)
            except (SyntaxError, ValueError):
                self._tree = False
        return self._tree if isinstance(self._tree, ast.Module) else None

    def _loop_at(self, code, line: int):
        """The counted loop around `line` (`_qualifies`), or the pair of loops (`_nested`), in
        the function (or module) that `code` runs, or None."""
        if self._loops is None:
            self._loops = {}
            tree = self.tree()
            if tree is None:
                return None
            _collect(tree, self._loops)
        found = self._loops.get(line)
        if found is None:
            return None
        scope_line, loop = found
        if scope_line != (0 if code.co_name == "<module>" else code.co_firstlineno):
            return None
        return loop


def _left(loop: tuple, scope: dict, globs: dict) -> tuple | None:
    """(iterations left after the current one, the range's length) of one counted loop."""
    target, names, code = loop
    value = scope.get(target)
    if type(value) is not int:
        return None
    ints = {}
    for name in names:
        v = scope.get(name, globs.get(name))
        if type(v) is not int:
            return None
        ints[name] = v
    if globs.get("range", range) is not range or "range" in scope:
        return None
    try:
        steps = range(*eval(code, {"__builtins__": {}}, ints))
        return len(steps) - steps.index(value) - 1, len(steps)
    except (TypeError, ValueError, ZeroDivisionError):
        return None


def _collect(tree: ast.AST, out: dict) -> None:
    """Map each line of a statement directly in a qualifying loop's body to (the first line
    of the function holding the loop, 0 at module level; the loop as `_qualifies` gives it)."""
    stack: list = [(tree, 0)]
    # id(loop) -> (the loop, what _qualifies says of it, the names its body assigns): an inner
    # loop is asked about as part of its outer one and again as a loop of its own
    seen: dict = {}
    while stack:  # explicit stack: the tree of a long program is deep
        node, scope = stack.pop()
        for child in child_statements(node):
            inner = scope
            if isinstance(child, (ast.FunctionDef, ast.AsyncFunctionDef)):
                # a decorated function's code starts at its first decorator
                inner = min([child.lineno] + [d.lineno for d in child.decorator_list])
            elif isinstance(child, ast.ClassDef):
                inner = -1      # no loop of ours runs in there as written
            if isinstance(child, ast.For) and scope >= 0:
                loop, _ = _qualified(child, seen)
                if loop is not None:
                    for stmt in _direct(child.body):
                        for ln in range(stmt.lineno, (stmt.end_lineno or stmt.lineno) + 1):
                            out.setdefault(ln, (scope, loop))
                    # its inner loops first met here: their lines count the outer's rest too
                    for inner_loop, pair in _nested(child, loop, seen):
                        for stmt in _direct(inner_loop.body):
                            for ln in range(stmt.lineno, (stmt.end_lineno or stmt.lineno) + 1):
                                out.setdefault(ln, (scope, pair))
            stack.append((child, inner))


# The nodes that hold statements: statements, `except` clauses and `case` blocks. An
# expression holds none (a lambda's body is an expression), so a walk over statements alone
# meets every loop, function and class, in the order a walk over every node meets them.
_BLOCKS = (ast.stmt, ast.excepthandler, ast.match_case)


def child_statements(node: ast.AST) -> list:
    """The statement-holding children of `node`, in `ast.iter_child_nodes` order: a walk of
    a program's statements visits a tenth of its nodes."""
    out: list = []
    for field in node._fields:
        value = getattr(node, field, None)
        # a list holds nodes of one kind: its first says whether they are blocks
        if type(value) is list and value and isinstance(value[0], _BLOCKS):
            out.extend(value)
    return out


def _nested(outer: ast.For, loop: tuple, seen: dict):
    """The counted loops directly in `outer`'s body whose range is the same at every outer
    iteration, each with the pair (outer, inner) the clock counts it by."""
    assigned = _qualified(outer, seen)[1]
    for stmt in _direct(outer.body, loops=True):
        if not isinstance(stmt, ast.For):
            continue
        inner = _qualified(stmt, seen)[0]
        if inner is not None and not set(inner[1]) & (assigned | {loop[0]}):
            yield stmt, (loop, inner)


def _direct(body: list, loops: bool = False):
    """The statements every run of `body` executes: its own, and those of `with` blocks
    (and its `for` loops themselves, with `loops`)."""
    for stmt in body:
        if isinstance(stmt, (ast.With, ast.AsyncWith)):
            yield from _direct(stmt.body, loops)
        elif loops and isinstance(stmt, ast.For):
            yield stmt
        elif not isinstance(stmt, (ast.If, ast.For, ast.While, ast.Try, ast.Match,
                                   ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            yield stmt


def _qualified(loop: ast.For, seen: dict) -> tuple:
    """(_qualifies(loop), the names its body assigns or None), each asked once per loop."""
    entry = seen.get(id(loop))
    if entry is None or entry[0] is not loop:
        entry = seen[id(loop)] = (loop, *_qualifies(loop))
    return entry[1:]


def _qualifies(loop: ast.For) -> tuple:
    """((loop variable, the names the range reads, the range's arguments compiled) when the
    loop counts as the module docstring says, else None; the names the body assigns or
    deletes, or None where the range is not one the clock reads)."""
    it = loop.iter
    if not (isinstance(loop.target, ast.Name) and isinstance(it, ast.Call)
            and isinstance(it.func, ast.Name) and it.func.id == "range"
            and 1 <= len(it.args) <= 3 and not it.keywords and not loop.orelse):
        return None, None
    if not all(_simple(a) for a in it.args):
        return None, None
    names = {n.id for a in it.args for n in ast.walk(a) if isinstance(n, ast.Name)}
    exits, stored = _body_facts(loop.body)
    if exits or stored & (names | {loop.target.id}):
        return None, stored
    # compiled once: evaluating the tree node by node at every pass cost more than the pass
    args = ast.Expression(ast.Tuple(list(it.args), ast.Load()))
    code = compile(ast.fix_missing_locations(args), "<range>", "eval")
    return (loop.target.id, tuple(sorted(names)), code), stored


def _body_facts(body: list) -> tuple[bool, set]:
    """(whether `body` leaves its loop early or declares a name global or nonlocal, the
    names it assigns or deletes), from one walk over every node of it. The first of those
    ends the walk: then the names are not needed."""
    stored: set = set()
    stack = list(body)
    while stack:    # explicit stack, as ast.walk's, without its two generators per node
        n = stack.pop()
        if type(n) is ast.Name:
            if type(n.ctx) is not ast.Load:
                stored.add(n.id)
            continue
        if isinstance(n, _EXITS_OR_SCOPE):
            return True, stored
        for field in n._fields:
            v = getattr(n, field, None)
            if type(v) is list:
                stack.extend([x for x in v if isinstance(x, ast.AST)])
            elif isinstance(v, ast.AST):
                stack.append(v)
    return False, stored


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
