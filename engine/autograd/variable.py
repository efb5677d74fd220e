"""`torch.autograd.Variable`: the pre-0.4 wrapper, today just a Tensor (kept for old code).

`Variable(t, requires_grad=True)` returns a tensor sharing `t`'s storage, and
`isinstance(x, Variable)` holds for every tensor, as in PyTorch.
"""
from __future__ import annotations

from .._names import TorchNamed
from ..tensor import Tensor, counter


class _VariableMeta(TorchNamed):
    def __instancecheck__(cls, other) -> bool:
        return isinstance(other, Tensor)


class Variable(metaclass=_VariableMeta):
    """Legacy wrapper.

    Example:
        >>> import gradstep.engine as torch
        >>> v = Variable(torch.ones(2), requires_grad=True)
        >>> v.requires_grad, isinstance(v, Variable)
        (True, True)
    """

    _torch_name = "torch.autograd.variable.Variable"

    def __new__(cls, data=None, requires_grad: bool = False, volatile: bool = False):
        from .. import _events, messages
        from ..tensor import new_tensor
        if volatile:        # a pre-0.4 flag: no_grad() took its place
            messages.warn("volatile was removed and now has no effect. Use `with "
                          "torch.no_grad():` instead.")
        if data is None:
            data = new_tensor(__import__("numpy").zeros((0,), dtype="float32"))
        t = new_tensor(data._data)
        t._vc = counter(data)
        if requires_grad:
            t.requires_grad = True
        if _events.listener is not None:
            _events.listener.on_tensor(t, "Variable")
        return t
