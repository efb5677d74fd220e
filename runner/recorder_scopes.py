"""Module scopes: which `nn.Module`'s forward (or `autograd.Function`) each op ran in.

PyTorch's profiler and `torch.fx` name ops by the module path they run under ("model.0");
the picture groups ops the same way. Each call of a module's `__call__` is recorded as one
scope: its path ("model[0]"), class, `extra_repr()`, whether the learner wrote the class, and
the tensor and node ids made during the call. Ids are counters (`t<k>`, `n<k>`), so a call
is two ranges [start, end) instead of a mark on every op: the hot `on_op` path does nothing
more. docs/trace-format.md, "scopes", is the contract.

Example:
    >>> s = ScopeEvents(); s._tids, s._nids = {}, {}
    >>> class Linear: _modules = {}
    >>> s.on_module_enter(Linear()); s._nids[1] = "n0"; s.on_module_exit(None)
    >>> [(c["type"], c["n"]) for c in s.scopes()]
    [('Linear', [0, 1])]
"""
from __future__ import annotations

import sys
from collections import deque

from gradstep.engine._names import is_engine_module
from .recorder_state import RecorderState

# Calls kept: the first HEAD and the latest TAIL (a long loop shows its first and last
# iterations in detail; the calls in between describe ids the trace summarised).
HEAD = 256
TAIL = 256
EXTRA_CHARS = 80


class ScopeEvents(RecorderState):
    """Listener methods for module calls; mixed into the Recorder."""

    _scope_stack: list | None = None
    _scope_head: list

    def on_module_enter(self, module) -> None:
        if self._scope_stack is None:
            self._scope_stack, self._scope_head = [], []
            self._scope_tail: deque = deque(maxlen=TAIL)
        stack = self._scope_stack
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
        entry = {"path": path, "type": cls.__name__, "extra": extra,
                 "user": not is_engine_module(cls.__module__),
                 "parent": parent[1]["path"] if parent else None,
                 "t": [len(self._tids), 0], "n": [len(self._nids), 0]}
        stack.append((module, entry))

    def on_module_exit(self, module) -> None:
        if not self._scope_stack:
            return
        _, entry = self._scope_stack.pop()
        entry["t"][1], entry["n"][1] = len(self._tids), len(self._nids)
        if entry["t"][1] == entry["t"][0] and entry["n"][1] == entry["n"][0]:
            return      # made nothing: nothing to group
        if len(self._scope_head) < HEAD:
            self._scope_head.append(entry)
        else:
            self._scope_tail.append(entry)

    def scopes(self) -> list[dict]:
        """The recorded calls, in the order they ended (an inner call before its outer)."""
        if self._scope_stack is None:
            return []
        return self._scope_head + list(self._scope_tail)


def _path(module, parent, frame) -> str:
    """"model[0]": the child's key under its parent, else the variable naming the module in
    the code that called it, else its class name."""
    if parent is not None:
        for key, child in (getattr(parent[0], "_modules", None) or {}).items():
            if child is module:
                return f"{parent[1]['path']}[{key}]" if key.isdigit() \
                    else f"{parent[1]['path']}.{key}"
    caller = _caller(frame)
    if caller is not None:
        for space in (caller.f_locals, caller.f_globals):
            for name, value in space.items():
                if value is module and not name.startswith("_"):
                    return name
    return type(module).__name__


def _caller(frame):
    """The frame that called Module.__call__ or Function.apply (past the recorder's own
    wrappers)."""
    f = frame
    while f is not None and f.f_code.co_name not in ("__call__", "apply"):
        f = f.f_back
    return f.f_back if f is not None else None
