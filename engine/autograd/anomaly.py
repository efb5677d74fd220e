"""Anomaly detection (`torch.autograd.detect_anomaly` / `set_detect_anomaly`).

While it is on, a backward pass checks every node's gradients: one that returned NaN raises
PyTorch's "Function 'XBackward0' returned nan values in its 0th output.", and any error inside
a node's backward is preceded by PyTorch's "Error detected in XBackward0" warning. PyTorch's
warning then lists the forward call's traceback; the engine does not record forward stacks (a
cost on every op), so the warning ends at its first line.

Example:
    >>> import gradstep.engine as torch
    >>> x = torch.tensor([0.0], requires_grad=True)
    >>> with torch.autograd.set_detect_anomaly(True):
    ...     try:
    ...         (x.sqrt() * 0).sum().backward()
    ...     except RuntimeError as e:
    ...         print(e)
    Function 'SqrtBackward0' returned nan values in its 0th output.
"""
from __future__ import annotations

import numpy as np

from .. import messages


class _State:
    __slots__ = ("enabled", "check_nan")

    def __init__(self) -> None:
        self.enabled, self.check_nan = False, True


state = _State()
WARNING = ("Anomaly Detection has been enabled. This mode will increase the runtime and should "
           "only be enabled for debugging.")


def is_anomaly_enabled() -> bool:
    return state.enabled


def is_anomaly_check_nan_enabled() -> bool:
    return state.check_nan


def set_anomaly_enabled(enabled: bool, check_nan: bool = True) -> None:
    state.enabled, state.check_nan = bool(enabled), bool(check_nan)


class set_detect_anomaly:  # PyTorch's name
    """Turn anomaly detection on or off now; as a context manager, restore it on exit."""

    def __init__(self, mode: bool, check_nan: bool = True) -> None:
        self.prev, self.prev_check_nan = state.enabled, state.check_nan
        set_anomaly_enabled(mode, check_nan)

    def __enter__(self) -> None:
        pass

    def __exit__(self, *exc) -> bool:
        set_anomaly_enabled(self.prev, self.prev_check_nan)
        return False


class detect_anomaly:  # PyTorch's name
    """Context manager (or decorator) that turns anomaly detection on inside it, with a
    warning when created, as PyTorch's."""

    def __init__(self, check_nan: bool = True) -> None:
        self.prev, self.prev_check_nan = state.enabled, state.check_nan
        self.check_nan = check_nan
        messages.warn(WARNING)

    def __enter__(self) -> None:
        set_anomaly_enabled(True, self.check_nan)

    def __exit__(self, *exc) -> bool:
        set_anomaly_enabled(self.prev, self.prev_check_nan)
        return False

    def __call__(self, fn):
        def wrapper(*args, **kwargs):
            with self.__class__(self.check_nan):
                return fn(*args, **kwargs)
        return wrapper


def mark(roots: tuple) -> None:
    """Before a pass in anomaly mode: send every node below `roots` through the checked path
    (the walk calls a node's backward directly only while its `_x` is None)."""
    stack = [t.grad_fn for t in roots if t.grad_fn is not None]
    seen = set()
    while stack:       # an explicit stack: graphs can be deeper than the recursion limit
        node = stack.pop()
        if node in seen:
            continue
        seen.add(node)
        node._extra("anomaly", True)
        stack.extend(fn for fn, _ in node.next_functions if fn is not None)


def checked_apply(node, grads: tuple) -> tuple:
    """node.apply(grads), with PyTorch's anomaly warning on error and its NaN check."""
    try:
        outs = node.apply(grads)
    except Exception:
        _warn_detected(node)
        raise
    if state.check_nan:
        for i, g in enumerate(outs):
            if g is not None and np.isnan(g._data).any():
                _warn_detected(node)
                raise RuntimeError(f"Function '{node.name()}' returned nan values in its "
                                   f"{i}th output.")
    return outs


def _warn_detected(node) -> None:
    messages.warn(f"Error detected in {node.name()}. Traceback of forward call that caused "
                  "the error:")
