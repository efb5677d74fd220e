"""Module scopes: which `nn.Module`'s forward (or `autograd.Function`) each op ran in.

PyTorch's profiler and `torch.fx` name ops by the module path they run under ("model.0");
the picture groups ops the same way. Each call of a module's `__call__` is recorded as one
scope: its path ("model[0]"), class, `extra_repr()`, whether the learner wrote the class, and
the tensor and node ids made during the call. Ids are counters (`t<k>`, `n<k>`), so a call
is two ranges [start, end) instead of a mark on every op: the hot `on_op` path does nothing
more. docs/trace-format.md, "scopes", is the contract.

Example:
    >>> s = ScopeEvents(); s._tids, s._nids, s._passes = {}, {}, 0
    >>> class Linear: _modules = {}
    >>> s.on_module_enter(Linear()); s._nids[1] = "n0"; s.on_module_exit(None)
    >>> [(c["type"], c["n"]) for c in s.scopes()]
    [('Linear', [0, 1])]
"""
from __future__ import annotations

import ast
import sys
from collections import deque

from gradstep.engine._names import is_engine_module
from .recorder_loops import child_statements
from .recorder_names import attribute_path
from .recorder_state import RecorderState

# what stands for a checkpointed function where a scope holds its module (on_checkpoint)
_CHECKPOINT = object()

# Calls kept: the first HEAD and the latest TAIL (a long loop shows its first and last
# iterations in detail; the calls in between describe ids the trace summarised).
HEAD = 256
TAIL = 256
EXTRA_CHARS = 80


class ScopeEvents(RecorderState):
    """Listener methods for module calls; mixed into the Recorder."""

    _scope_stack: list | None = None
    _scope_head: list
    _scope_tail: deque

    def _open_scopes(self) -> list:
        """The stack of open calls, made at the first call (most programs make none)."""
        if self._scope_stack is None:
            self._scope_stack, self._scope_head = [], []
            self._scope_tail = deque(maxlen=TAIL)
        return self._scope_stack

    def on_module_enter(self, module) -> None:
        stack = self._open_scopes()
        parent = stack[-1] if stack else None
        path = _path(module, parent, sys._getframe(1))
        if isinstance(module, type):    # an autograd.Function subclass, entered by apply()
            cls, extra = module, ""
        else:
            cls = type(module)
            try:
                extra = str(module.extra_repr())[:EXTRA_CHARS]
            except Exception:  # a learner's extra_repr may raise
                extra = ""
        if parent is not None:
            path = _not_open(path, cls.__name__, parent[1]["path"],
                             {e["path"] for _, e in stack})
        entry = {"path": path, "type": cls.__name__, "extra": extra,
                 "user": not is_engine_module(cls.__module__),
                 "parent": parent[1]["path"] if parent else None,
                 "t": [len(self._tids), 0], "n": [len(self._nids), 0],
                 "pass": self._passes}
        at = self._loop_at(sys._getframe(1)) if parent is None or parent[1]["user"] else None
        if at:
            entry["at"] = at
        stack.append((module, entry))

    def on_step_enter(self, name: str, t: int) -> None:
        """A time step of the recurrent layer whose call is open: a scope inside it, `rnn.l0`
        at `t=2`, so that each step of an unrolled layer is a group of its own."""
        stack = self._scope_stack
        if not stack or stack[-1][0] is None:
            return      # not inside a layer's call (or inside a step already): no group
        outer = stack[-1][1]
        stack.append((None, {"path": f"{outer['path']}.{name}", "type": f"{outer['type']} step",
                             "extra": "", "user": False, "parent": outer["path"],
                             "t": [len(self._tids), 0], "n": [len(self._nids), 0],
                             "pass": self._passes, "at": f"t={t}", "step": True}))

    def on_step_exit(self) -> None:
        stack = self._scope_stack
        if stack and stack[-1][0] is None:     # the step on_step_enter opened
            self._close_scope(stack)

    def on_checkpoint(self, function, rerun: bool, entered: bool) -> None:
        """A checkpointed function runs: a scope `block` of type `checkpoint`, so that the
        picture frames what it did. Its rerun inside a backward pass has `recompute: true`,
        and its ops are recorded (on_op lets them through while `_recomputing`)."""
        if not entered:
            if rerun:
                self._recomputing = max(self._recomputing - 1, 0)
            stack = self._scope_stack
            if stack and stack[-1][0] is _CHECKPOINT:
                self._close_scope(stack)
            return
        if rerun:
            self._recomputing += 1
        stack = self._open_scopes()
        outer = stack[-1][1] if stack else None
        name = getattr(function, "__name__", None)
        if not isinstance(name, str) or not name.isidentifier():
            name = type(function).__name__      # a module or a callable object
        entry = {"path": name, "type": "checkpoint", "extra": "", "user": True,
                 "parent": outer["path"] if outer else None,
                 "t": [len(self._tids), 0], "n": [len(self._nids), 0], "pass": self._passes}
        if rerun:
            entry["recompute"] = True
        stack.append((_CHECKPOINT, entry))

    def on_module_exit(self, module) -> None:
        stack = self._scope_stack
        if stack and stack[-1][0] is None:     # a step whose exit a light window counted
            stack.pop()
        if stack:
            self._close_scope(stack)

    def _close_scope(self, stack: list) -> None:
        """The innermost open call ends: its ranges are complete, and it is kept if it made
        anything."""
        _, entry = stack.pop()
        entry["t"][1], entry["n"][1] = len(self._tids), len(self._nids)
        if entry["t"][1] == entry["t"][0] and entry["n"][1] == entry["n"][0]:
            return      # made nothing: nothing to group
        if len(self._scope_head) < HEAD:
            self._scope_head.append(entry)
        else:
            self._scope_tail.append(entry)

    def _loop_at(self, frame) -> str | None:
        """"t=2" when the program calls the module inside a `for t in ...` loop of its own
        code: what tells one call of an RNN cell from the next (docs/trace-format.md)."""
        caller = _caller(frame)
        filename = getattr(self, "filename", None)
        if caller is None or filename is None or caller.f_code.co_filename != filename:
            return None
        loops = getattr(self, "_for_spans", None)
        if loops is None:
            clock = getattr(self, "_loops", None)    # the loop clock's tree: parsed once
            loops = self._for_spans = _for_loops(clock.tree() if clock is not None
                                                 else _parse(self.source))
        line = caller.f_lineno
        for first, last, target in loops:     # innermost first
            if first <= line <= last:
                value = caller.f_locals.get(target)
                if isinstance(value, (int, str)) and not isinstance(value, bool):
                    text = f"{target}={value}" if isinstance(value, int) else \
                        f"{target}={value!r}"
                    return text[:24]
                return None
        return None

    def scopes(self) -> list[dict]:
        """The recorded calls, in the order they ended (an inner call before its outer)."""
        if self._scope_stack is None:
            return []
        return self._scope_head + list(self._scope_tail)


def _for_loops(tree: ast.Module | None) -> list[tuple[int, int, str]]:
    """(first line, last line, loop variable) of each `for NAME in ...:` of the program,
    innermost (latest starting) first."""
    if tree is None:
        return []
    loops = []
    stack = [tree]
    while stack:    # statements only: a loop is one (iterative: the tree can be deep)
        node = stack.pop()
        if isinstance(node, ast.For) and isinstance(node.target, ast.Name):
            loops.append((node.lineno, node.end_lineno or node.lineno, node.target.id))
        stack.extend(child_statements(node))
    return sorted(loops, key=lambda x: -x[0])


def _parse(source: str) -> ast.Module | None:
    try:
        return ast.parse(source)
    except (SyntaxError, ValueError):
        return None


def _path(module, parent, frame) -> str:
    """"model[0]": the child's key under its parent (`m.layers[1]` for a module reached
    through a ModuleList the parent holds), else the variable naming the module in the code
    that called it, else its class name."""
    if parent is not None:
        found = _child_path(parent[0], module)
        if found is not None:
            return attribute_path(parent[1]["path"], found)
    caller = _caller(frame)
    if caller is not None:
        for space in (caller.f_locals, caller.f_globals):
            for name, value in space.items():
                if value is module and not name.startswith("_"):
                    return name
    return type(module).__name__


def _child_path(parent, module) -> str | None:
    """The dotted key of `module` under `parent` (breadth first, so the shortest), or None."""
    children = getattr(parent, "_modules", None)
    if children:    # a direct child (a Sequential's layer): the walk's first step, alone
        for key, child in children.items():
            if child is module:
                return key
    seen = set()
    queue = deque([("", parent)])
    while queue:            # iterative: models nest deeply
        prefix, mod = queue.popleft()
        if id(mod) in seen:
            continue
        seen.add(id(mod))
        for key, child in (getattr(mod, "_modules", None) or {}).items():
            if child is module:
                return prefix + key
            if child is not None:
                queue.append((prefix + key + ".", child))
    return None


def _not_open(path: str, cls_name: str, parent_path: str, open_paths: set[str]) -> str:
    """`path`, unless a call still open around this one has it (`for m in self.blocks:
    m(x)` inside a model also called `m`): then the class name, qualified by the parent's
    path until no open call has it. A scope is never its own ancestor, so the picture's
    groups nest."""
    if path not in open_paths:
        return path
    path = cls_name
    while path in open_paths:
        path = f"{parent_path}.{path}"
    return path


def _caller(frame):
    """The frame that called Module.__call__ or Function.apply (past the recorder's own
    wrappers)."""
    f = frame
    while f is not None and f.f_code.co_name not in ("__call__", "apply"):
        f = f.f_back
    return f.f_back if f is not None else None
