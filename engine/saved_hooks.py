"""Hooks on saved tensors: what `torch.autograd.graph.saved_tensors_hooks` installs.

While a `saved_tensors_hooks(pack, unpack)` context is open, every tensor an op saves for
backward is handed to `pack` when the node is made (under no_grad, as PyTorch runs it), and
the node keeps only what `pack` returned. The backward gets the tensor back from `unpack`.

# NOTE [packed saved tensors]
# A packed save sits in `node._saved` as a `Packed` whose `_vc` never equals the version
# recorded for it, so the saved-value accessors of graph.py always take their slow path to
# `Node._unpack`, which asks `Packed.get`. As PyTorch's generated backward does, each run of
# the node's backward unpacks all its packed saves once, in the order they were saved, at the
# start (a node pre-hook fills `value`; a node hook empties it afterwards); outside a backward
# every access (`grad_fn._saved_self`) calls `unpack` again. PyTorch checks no version counter
# for hooked saves, and neither does `Node._unpack`. Freeing the graph drops packed values as
# any other saved tensor, so a second backward raises the usual error.
"""
from __future__ import annotations

from .grad_mode import state as _grad_state

# the open contexts' (pack, unpack) pairs, innermost last; the ops test it for emptiness
hook_stack: list = []
# the message of the innermost open `disable_saved_tensors_hooks`, or None: opening hooks then
# raises it (PyTorch keeps it per thread; the engine runs one program per process)
disabled: list = [None]


class Packed:
    """What `pack` returned for one saved tensor, with what it takes to restore it."""

    __slots__ = ("packed", "unpack", "meta", "value")
    _vc = (-2,)       # never a recorded version: see NOTE [packed saved tensors]

    def __init__(self, packed, unpack, meta: tuple) -> None:
        self.packed, self.unpack, self.meta, self.value = packed, unpack, meta, None

    def get(self):
        """The saved tensor: the one unpacked for the running backward, else unpacked now."""
        if self.value is not None:
            return self.value
        return self._unpacked()

    def _unpacked(self):
        from .tensor import Tensor, new_tensor
        t = self.unpack(self.packed)
        rg, grad_fn, out_nr, original = self.meta
        if isinstance(t, Tensor) and t is not original and t.grad_fn is None and rg:
            # PyTorch hands back a tensor with the saved one's autograd metadata
            alias = new_tensor(t._data)
            alias._rg, alias.grad_fn, alias._out_nr = True, grad_fn, out_nr
            return alias
        return t

    def __repr__(self) -> str:
        return f"<saved tensor packed as {type(self.packed).__name__}>"


def pack_node(node, unpack_up_front: bool = True) -> None:
    """Hand each tensor `node` saved to the innermost pack hook (see the module docstring).
    A custom Function's node passes unpack_up_front=False: PyTorch unpacks its saves each time
    `ctx.saved_tensors` is read, not once per backward."""
    from .tensor import Tensor
    pack, unpack = hook_stack[-1]
    saved, versions = list(node._saved), list(node._versions)
    enabled, _grad_state.enabled = _grad_state.enabled, False
    try:
        for i, v in enumerate(saved):
            if not isinstance(v, Tensor) or versions[i] is None:
                continue
            if v._x is not None and "wrapped_number" in v._x:
                continue       # a Python number PyTorch wrapped: never handed to the hooks
            saved[i] = Packed(pack(v), unpack, (v._rg, v.grad_fn, v._out_nr, v))
            versions[i] = -1
    finally:
        _grad_state.enabled = enabled
    if any(type(v) is Packed for v in saved):
        node._saved, node._versions = tuple(saved), tuple(versions)
        if not unpack_up_front:
            return
        node.register_prehook(_unpack_all(node))
        node.register_hook(_forget_all(node))


def _unpack_all(node):
    def unpack_saved(grad_outputs):
        for v in node._saved:
            if type(v) is Packed:
                v.value = v._unpacked()
    return unpack_saved


def _forget_all(node):
    def forget_saved(grad_inputs, grad_outputs):
        for v in node._saved:
            if type(v) is Packed:
                v.value = None
    return forget_saved
