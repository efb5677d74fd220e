"""`torch.autograd.graph.register_multi_grad_hook`: one hook on the gradients of several
tensors.

With `mode="all"` the hook gets, once per backward pass, the list of the gradients computed
for the tensors (None for one the pass did not reach); it runs when the pass has finished.
With `mode="any"` it gets the first of those gradients, once per pass. Each tensor's own
`register_hook` collects the gradients; `walk.pass_end` closes a pass.
"""
from __future__ import annotations

from .. import _events
from .._names import TorchNamed
from . import walk


class _MultiHandle(metaclass=TorchNamed):
    """Removes the per-tensor hooks and the end-of-pass callback together."""

    _torch_name = "torch.utils.hooks.RemovableHandle"

    def __init__(self, handles: list, callback) -> None:
        self._handles, self._callback = handles, callback

    def __repr__(self) -> str:
        return f"<{self._torch_name} object at {hex(id(self))}>"

    def remove(self) -> None:
        for handle in self._handles:
            handle.remove()
        if self._callback in walk.pass_end:
            walk.pass_end.remove(self._callback)


def register_multi_grad_hook(tensors, fn, *, mode: str = "all") -> _MultiHandle:
    """Call `fn` with the gradients of `tensors` computed by each backward pass.

    Example:
        >>> import gradstep.engine as torch
        >>> a = torch.tensor(1., requires_grad=True)
        >>> b = torch.tensor(2., requires_grad=True)
        >>> h = torch.autograd.graph.register_multi_grad_hook((a, b), print)
        >>> (a * 3).backward()
        [tensor(3.), None]
    """
    if mode not in ("all", "any"):
        raise ValueError(f"Expects mode to be one of ('all', 'any') but got {mode}")
    tensors = tuple(tensors)
    seen: dict = {}

    def collector(i: int):
        def hook(grad):
            if mode == "any":
                if not seen:
                    seen[i] = grad
                    r = fn(grad)
                    if _events.listener is not None:
                        _events.hook_ran("multi_grad", tensors, fn, (grad,), r)
            else:
                seen[i] = grad
        return hook

    def end_of_pass() -> None:
        if mode == "all" and seen:
            grads = [seen.get(i) for i in range(len(tensors))]
            seen.clear()
            r = fn(grads)
            if _events.listener is not None:
                _events.hook_ran("multi_grad", tensors, fn, tuple(grads), r)
        seen.clear()

    handles = [t.register_hook(collector(i)) for i, t in enumerate(tensors) if t.requires_grad]
    walk.pass_end.append(end_of_pass)
    return _MultiHandle(handles, end_of_pass)
