"""What an operator does with an operand PyTorch's operators do not take (a numpy array, a list).

PyTorch's Tensor operators answer NotImplemented for such an operand, so Python takes over:
`np.ones(3) + t` ends in numpy's "Concatenation operation is not implemented" TypeError (numpy
defers to the Tensor, which declines, and Python falls back to sequence concatenation),
`np.ones(3) * t` and `[1.] - t` in Python's "unsupported operand type(s)" one, `np.ones(3) < t`
in "'<' not supported between instances", and `np.ones(3) != t` in the identity comparison
(True). `np.ones(3) / t` is the exception: PyTorch's `__rtruediv__` is `t.reciprocal() * array`,
which numpy then computes (refusing a tensor that requires grad) and wraps back into a Tensor.
`==` takes an array in PyTorch (a tensor of bools), but not a list.

The named forms are stricter: `torch.add(t, np.ones(3))`, `t.mul([1.])` and `t.matmul(2)` go
through PyTorch's argument parser, which takes a Tensor (and, for most arithmetic, a number)
and raises "add(): argument 'other' (position 2) must be Tensor, not numpy.ndarray" for
anything else (`refuse`); so do the one-tensor torch functions (`torch.exp(2.0)`,
`tensor_input`).
"""
from __future__ import annotations

import functools

import numpy as np

from . import messages

_SEQUENCES = (np.ndarray, list, tuple)
# what PyTorch's parser takes for a `Tensor other` that also has a Number overload (bool is int)
_NUMBERS = (int, float, complex, np.number, np.bool_)
# what the operators take: numbers, and the Tensor class once `accept_tensors` names it (the
# Tensor module imports this one, so it cannot be imported here)
_OPERANDS: tuple = _NUMBERS


def accept_tensors(tensor_class) -> None:
    """Let the operators take `tensor_class` (called once, when Tensor exists)."""
    global _OPERANDS
    _OPERANDS = (tensor_class,) + _NUMBERS


def refuse(value, fn: str, param: str, position: int, numbers: bool = True):
    """`value`, for a named op's tensor parameter that the caller found not to be a Tensor,
    if PyTorch's argument parser would take it there (a Python or numpy number, when
    `numbers`); otherwise its TypeError. `position` counts as PyTorch does: `t.add(x)` has
    other at 1, `torch.add(t, x)` at 2. (PyTorch drops the position for a keyword argument;
    gradstep cannot tell the two apart, so it always names it.)

    Example:
        >>> refuse([1.0], "mul", "other", 1)
        Traceback (most recent call last):
        TypeError: mul(): argument 'other' (position 1) must be Tensor, not list
    """
    if numbers and isinstance(value, _NUMBERS):
        return value
    raise TypeError(f"{fn}(): argument '{param}' (position {position}) must be Tensor, not "
                    f"{messages.parser_type_name(value)}")


def tensor_input(fn, tensor_class, name: str = ""):
    """`fn`, a torch function whose first parameter `input` takes only a Tensor, refusing
    anything else with PyTorch's parser error: `torch.exp(2.0)` is "exp(): argument 'input'
    (position 1) must be Tensor, not float", not an engine error about `_data`. Only the torch
    namespace's functions are wrapped: a method's `self` is always a Tensor, so methods skip
    this frame. `name` is the torch name, for an alias (`torch.negative` is `neg`)."""
    name = name or fn.__name__

    @functools.wraps(fn)
    def checked(input, *args, **kwargs):
        if not isinstance(input, tensor_class):
            refuse(input, name, "input", 1, numbers=False)
        return fn(input, *args, **kwargs)
    checked.__name__ = checked.__qualname__ = name
    return checked


def both_tensors(fn: str, input, param: str, other, tensor_class) -> None:
    """Refuse a non-Tensor for a torch function's two Tensor-only parameters (`torch.mm(a,
    b)`, `torch.maximum(a, b)`) as PyTorch's parser does; numbers are refused too."""
    if not isinstance(input, tensor_class):
        refuse(input, fn, "input", 1, numbers=False)
    if not isinstance(other, tensor_class):
        refuse(other, fn, param, 2, numbers=False)


def declines_sequences(method):
    """An operator (arithmetic, bitwise, != or ordering) that answers NotImplemented for an
    operand other than a tensor or a number, as PyTorch's do (they turn their parser's
    TypeError into NotImplemented): `t + [1.]`, `t < (1,)` and `t - None` are Python's
    TypeError, `t != np.ones(3)` and `t != None` its identity comparison, `"ab" * t` asks the
    tensor for an index, and `t + np.ones(3)` becomes numpy's `np.ones(3).__radd__(t)`, which
    reads the tensor (refusing one that requires grad) and computes in numpy's promoted dtype,
    wrapped back into a Tensor outside the graph."""
    @functools.wraps(method)
    def declining(self, other):
        if not isinstance(other, _OPERANDS):
            return NotImplemented
        return method(self, other)
    return declining


def declines_lists(method):
    """`==`, which takes a numpy array in PyTorch but answers NotImplemented for a list,
    tuple, None or any other non-number (so `t == None` is Python's identity comparison,
    False)."""
    @functools.wraps(method)
    def compare(self, other):
        if not isinstance(other, _OPERANDS) and not isinstance(other, np.ndarray):
            return NotImplemented
        return method(self, other)
    return compare


def array_over_tensor(array: np.ndarray, tensor):
    """`array / tensor` as PyTorch computes it: numpy multiplies the tensor's reciprocal (in
    the tensor's dtype) by the array, in numpy's promoted dtype, and the result is a Tensor
    outside the graph; numpy cannot read a tensor that requires grad."""
    from .ops.elementwise import reciprocal
    from .tensor import new_tensor
    recip = reciprocal(tensor)
    if recip.requires_grad:
        raise RuntimeError(messages.NUMPY_REQUIRES_GRAD)
    return new_tensor(np.asarray(np.multiply(recip._data, array)))
