"""`nn.Parameter`: a leaf Tensor that a Module registers as one of its weights.

PyTorch counterpart: `torch.nn.parameter.Parameter`. It shares storage with the tensor it
wraps, requires grad by default and prints as ``Parameter containing:`` followed by the
tensor's own repr.
"""
from __future__ import annotations

import copy

from .. import _events, messages
from ..factories import empty
from ..tensor import Tensor, _init, counter


class Parameter(Tensor):
    """A Tensor that is a module's parameter: assigning it to a Module attribute registers it.

    Example:
        >>> import gradstep.engine as torch
        >>> p = torch.nn.Parameter(torch.ones(2))
        >>> print(p)
        Parameter containing:
        tensor([1., 1.], requires_grad=True)
        >>> p.is_leaf, type(p).__name__
        (True, 'Parameter')
    """

    __slots__ = ()
    _torch_name = "torch.nn.parameter.Parameter"   # type(p) prints as PyTorch's

    def __new__(cls, data: Tensor | None = None, requires_grad: bool = True) -> "Parameter":
        if data is None:
            data = empty(0)
        elif not isinstance(data, Tensor):     # PyTorch's __new__ calls data.detach() first
            raise AttributeError(f"'{messages.parser_type_name(data)}' object has no "
                                 "attribute 'detach'")
        if requires_grad and data._data.dtype.kind not in "fc":
            raise RuntimeError(messages.INT_REQUIRES_GRAD)
        p = object.__new__(cls)
        _init(p, data._data)        # same storage, as torch.nn.Parameter(t) shares t's
        p._vc = counter(data)
        p._rg = bool(requires_grad)
        if _events.listener is not None:
            _events.listener.on_tensor(p, "Parameter")
        return p

    def __init__(self, data=None, requires_grad: bool = True) -> None:
        pass    # everything happened in __new__; Tensor.__init__ would start over

    def __repr__(self) -> str:
        return "Parameter containing:\n" + super().__repr__()

    __str__ = __repr__      # print() shows the same text (PyTorch defines only __repr__)

    def __deepcopy__(self, memo: dict) -> "Parameter":
        # a fresh uid and storage for the copy (copying the slots would duplicate the uid)
        if id(self) in memo:
            return memo[id(self)]
        data = empty(0)
        data._data = self._data.copy()
        out = Parameter(data, self._rg)
        if self._grad is not None:
            out._grad = copy.deepcopy(self._grad, memo)
        memo[id(self)] = out
        return out
