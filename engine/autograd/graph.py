"""`torch.autograd.graph`: the Node class grad_fns are made of, and hooks on saved tensors.

`saved_tensors_hooks(pack_hook, unpack_hook)` is a context manager: every tensor an op saves
for backward inside it goes through `pack_hook` when saved and comes back through
`unpack_hook` when the backward (or `grad_fn._saved_<name>`) needs it. `save_on_cpu` is the
pair PyTorch ships, which here, on the CPU already, keeps a copy. The mechanism is in
`engine/saved_hooks.py` (NOTE [packed saved tensors]). `disable_saved_tensors_hooks(message)`
makes opening such hooks raise `RuntimeError(message)` while it is open.
`register_multi_grad_hook` is in `multi_grad_hook.py`.
"""
from __future__ import annotations

import contextlib

from .. import saved_hooks
from .._names import TorchNamed
from ..graph import Node
from ..saved_hooks import hook_stack
from .multi_grad_hook import register_multi_grad_hook

__all__ = ["Node", "saved_tensors_hooks", "save_on_cpu", "disable_saved_tensors_hooks",
           "register_multi_grad_hook"]


class saved_tensors_hooks(metaclass=TorchNamed):  # PyTorch's name
    """Pack and unpack hooks for the tensors saved by the ops run inside the context.

    Example:
        >>> import gradstep.engine as torch
        >>> a = torch.tensor([1., 2.], requires_grad=True)
        >>> with torch.autograd.graph.saved_tensors_hooks(lambda t: t.tolist(),
        ...                                               lambda l: torch.tensor(l)):
        ...     y = a.exp()
        >>> y.grad_fn._saved_result
        tensor([2.7183, 7.3891], grad_fn=<ExpBackward0>)
    """

    _torch_name = "torch.autograd.graph.saved_tensors_hooks"

    def __init__(self, pack_hook, unpack_hook) -> None:
        self.pack_hook, self.unpack_hook = pack_hook, unpack_hook

    def __enter__(self) -> None:
        if saved_hooks.disabled[0] is not None:
            raise RuntimeError(saved_hooks.disabled[0])
        hook_stack.append((self.pack_hook, self.unpack_hook))

    def __exit__(self, *exc) -> bool:
        hook_stack.pop()
        return False


class save_on_cpu(saved_tensors_hooks):  # PyTorch's name
    """Saved tensors kept on the CPU until backward (a copy of each, as everything here is
    on the CPU already)."""

    _torch_name = "torch.autograd.graph.save_on_cpu"

    def __init__(self, pin_memory: bool = False, device_type: str = "cuda") -> None:
        from ..tensor import new_tensor

        def pack_to_cpu(tensor):
            return tensor.device, new_tensor(tensor._data.copy())

        def unpack_from_cpu(packed):
            return packed[1]

        super().__init__(pack_to_cpu, unpack_from_cpu)


@contextlib.contextmanager
def disable_saved_tensors_hooks(error_message: str):
    """A context (or decorator) inside which opening saved-tensors hooks raises
    `RuntimeError(error_message)`; entering it while hooks are open raises the same. On leaving,
    an enclosing one's message applies again, as in PyTorch.

    Example:
        >>> import gradstep.engine as torch
        >>> with torch.autograd.graph.disable_saved_tensors_hooks("no hooks here"):
        ...     with torch.autograd.graph.save_on_cpu():
        ...         pass
        Traceback (most recent call last):
        RuntimeError: no hooks here
    """
    previous = saved_hooks.disabled[0]
    try:
        if hook_stack:
            raise RuntimeError(error_message)
        saved_hooks.disabled[0] = error_message
        yield
    finally:
        saved_hooks.disabled[0] = previous
