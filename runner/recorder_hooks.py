"""The recorder's hook events: a hook the program registered ran (docs/trace-format.md,
"hook").

A hook changes the numbers a pass hands on (`y.register_hook(lambda g: g * 10)`), so a
picture that shows only the nodes' own rules would tell a story whose numbers do not add up.
Each run of a program's hook is a step of its own: where it sits, what it received and what
it gave back (nothing: the values go on unchanged). The engine reports its own helper hooks
at the program's hook they serve (`engine._events.hook_ran`).
"""
from __future__ import annotations

from gradstep.engine.tensor import Tensor

from .recorder_backward import _grad_snap
from .recorder_names import attribute_path, modules_in
from .recorder_scopes import _child_path
from .recorder_state import RecorderState

KINDS = ("tensor", "node_pre", "node", "module_backward_pre", "module_backward",
         "forward_pre", "forward", "multi_grad")


class HookEvents(RecorderState):
    """Listener method for hooks; mixed into the Recorder (runner/recorder.py has the state)."""

    def on_hook(self, kind: str, owner, hook, received: tuple, returned) -> None:
        active = self._active
        line = self._bw_line if active is not None else self._where()[0]
        if active is None:
            self._settle()
        tensors: list = []
        node = module = None
        if isinstance(owner, Tensor):
            tensors = [self._tid(owner, line)]
        elif isinstance(owner, tuple):          # register_multi_grad_hook's tensors
            tensors = [self._tid(t, line) for t in owner if isinstance(t, Tensor)]
        elif kind.startswith(("module", "forward")):
            module = self._module_path(owner)
        else:
            node = self._nids.get(owner._uid)
        tids, cap = self._tids, self._copy_max
        got = [_grad_snap(g, tids, cap) for g in _tensors_of(received)]
        gave = None if returned is None else [_grad_snap(g, tids, cap)
                                              for g in _tensors_of(returned)]
        name = getattr(hook, "__name__", None) or type(hook).__name__
        self._window.append(("hook", line, self._pass() if active is not None else None, kind,
                             tensors, node, module, name, got, gave))

    def _module_path(self, module) -> str:
        """The module as the program reaches it: the call on the scope stack, else a path
        from a module-level variable, else its class name."""
        for mod, entry in reversed(self._scope_stack or []):
            if mod is module:
                return entry["path"]
        for name, top in modules_in((self._globals or {}).items()):
            if top is module:
                return name
            found = _child_path(top, module)
            if found is not None:
                return attribute_path(name, found)
        return type(module).__name__


def _tensors_of(value) -> list:
    """The gradients among a hook's arguments or result, None for anything not a tensor."""
    if isinstance(value, Tensor):
        return [value]
    if isinstance(value, (tuple, list)):
        return [v if isinstance(v, Tensor) else None for v in value]
    return [None]
