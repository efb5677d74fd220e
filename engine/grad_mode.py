"""Grad mode: whether ops record a graph (`torch.no_grad`, `torch.enable_grad`, ...).

One thread-local flag. The switches are lowercase classes, as in PyTorch, and each works both
as a context manager and as a function decorator. Every change is reported to the listener.
"""
from __future__ import annotations

import functools
import threading

from . import _events
from ._names import TorchNamed


class _State(threading.local):
    enabled = True
    inference = False
    # True while a backward pass without create_graph computes gradients: the ops it runs
    # are internal to each node_apply and are not reported to the listener as ops
    quiet = False


state = _State()


def is_grad_enabled() -> bool:
    """True when ops record the graph.

    Example:
        >>> with no_grad():
        ...     is_grad_enabled()
        False
    """
    return state.enabled


def is_inference_mode_enabled() -> bool:
    """True inside `inference_mode()`."""
    return state.inference


# NOTE [inference tensors]: a tensor made inside inference_mode stays an "inference tensor"
# for life, and PyTorch refuses to save one for backward or to update one in place outside
# the mode. Rather than a flag on every tensor (a cost on the hot path), each stretch of
# inference mode is remembered as a range of tensor uids, which only ever increase.
inference_spans: list = []     # [first uid, end uid or None while open], oldest first


def _mark_inference(on: bool) -> None:
    from .tensor import tensor_uids
    if on:
        inference_spans.append([next(tensor_uids), None])
    elif inference_spans and inference_spans[-1][1] is None:
        inference_spans[-1][1] = next(tensor_uids)


def is_inference_uid(uid: int) -> bool:
    """Whether the tensor with this uid was made inside inference mode."""
    for first, end in reversed(inference_spans):
        if uid >= first:
            return end is None or uid < end
    return False


def _set(enabled: bool, mode: str) -> None:
    state.enabled = enabled
    if _events.listener is not None:
        _events.listener.on_grad_mode(enabled, mode)


class _Switch(metaclass=TorchNamed):
    """Shared machinery: enter sets the flag, exit restores it; calling wraps a function."""

    _mode = ""
    _target = True

    def __new__(cls, *args, **kwargs):
        # PyTorch 2 also takes the bare decorator, `@torch.no_grad` without parentheses:
        # the class is then called with the function itself and hands back the wrapper
        if cls._bare_ok and len(args) == 1 and not kwargs and callable(args[0]) \
                and not isinstance(args[0], bool):
            return cls()(args[0])
        return super().__new__(cls)

    _bare_ok = True

    def __enter__(self):
        self._prev = state.enabled
        _set(self._target, self._mode)
        return None

    def __exit__(self, *exc) -> bool:
        _set(self._prev, self._mode)
        return False

    def __call__(self, fn):
        @functools.wraps(fn)
        def wrapper(*args, **kwargs):
            with self.clone():
                return fn(*args, **kwargs)
        return wrapper

    def clone(self):
        return type(self)()

    def __repr__(self) -> str:
        return f"<{type(self)._torch_name} object at {hex(id(self))}>"


class no_grad(_Switch):
    """Run without recording a graph; results have ``requires_grad=False``.

    Example:
        >>> import gradstep.engine as torch
        >>> x = torch.ones(2, requires_grad=True)
        >>> with torch.no_grad():
        ...     (x * 2).requires_grad
        False
    """

    _torch_name = "torch.autograd.grad_mode.no_grad"

    _mode, _target = "no_grad", False


class enable_grad(_Switch):
    """Record a graph again, even inside `no_grad`."""

    _torch_name = "torch.autograd.grad_mode.enable_grad"

    _mode, _target = "enable_grad", True


class set_grad_enabled(_Switch):
    """Set grad mode to `mode` now; as a context manager, restore the old mode on exit.

    Example:
        >>> with set_grad_enabled(False):
        ...     is_grad_enabled()
        False
    """

    _torch_name = "torch.autograd.grad_mode.set_grad_enabled"

    _mode = "set_grad_enabled"
    _bare_ok = False

    def __init__(self, mode: bool) -> None:
        self._prev = state.enabled
        self._target = bool(mode)
        _set(self._target, self._mode)

    def __enter__(self):
        return None

    def __call__(self, fn):
        # used as a decorator, the mode applies per call, not from the decoration on
        _set(self._prev, self._mode)
        return super().__call__(fn)

    def clone(self):
        return set_grad_enabled(self._target)

    def __repr__(self) -> str:
        return f"{self._torch_name}(mode={self._target})"


class inference_mode(_Switch):
    """Like `no_grad`, and what it makes are inference tensors (NOTE [inference tensors])."""

    _torch_name = "torch.autograd.grad_mode.inference_mode"

    _mode = "inference_mode"

    def __init__(self, mode: bool = True) -> None:
        self._target = not mode
        self._on = bool(mode)

    def __enter__(self):
        self._prev_inf = state.inference
        state.inference = self._on
        if self._on != self._prev_inf:
            _mark_inference(self._on)
        return super().__enter__()

    def __exit__(self, *exc) -> bool:
        if self._on != self._prev_inf:
            _mark_inference(self._prev_inf)
        state.inference = self._prev_inf
        return super().__exit__(*exc)

    def clone(self):
        return inference_mode(self._on)
