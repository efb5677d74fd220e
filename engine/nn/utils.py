"""`torch.nn.utils`: gradient clipping and the parameters <-> one vector conversions.

Written, as PyTorch's are, on top of public tensor operations: the total norm is the 2-norm
(or p-norm) of the per-gradient norms, and every gradient is scaled in place by
`clamp(max_norm / (total_norm + 1e-6), max=1.0)`, even when that factor is 1.
"""
from __future__ import annotations

import types

from .. import messages
from ..deprecated import old_spelling
from ..factories import tensor
from ..grad_mode import no_grad
from ..ops.clamping import clamp
from ..ops.join import cat, stack
from ..ops.reduction import vector_norm
from ..tensor import Tensor
from . import rnn_utils as rnn  # noqa: F401  (torch.nn.utils.rnn)

_NONFINITE = ("The total norm of order {} for gradients from `parameters` is non-finite, so it "
              "cannot be clipped. To disable this error and scale the gradients by the "
              "non-finite norm anyway, set `error_if_nonfinite=False`")


def _as_list(parameters) -> list:
    return [parameters] if isinstance(parameters, Tensor) else list(parameters)


@no_grad()
def get_total_norm(tensors, norm_type: float = 2.0, error_if_nonfinite: bool = False,
                   foreach=None) -> Tensor:
    """The p-norm of all `tensors` seen as one vector (the norm of their norms)."""
    tensors = _as_list(tensors)
    norm_type = float(norm_type)
    if not tensors:
        return tensor(0.0)
    total = vector_norm(stack([vector_norm(t, norm_type) for t in tensors]), norm_type)
    if error_if_nonfinite and (total.isnan() | total.isinf()).item():
        raise RuntimeError(_NONFINITE.format(norm_type))
    return total


@no_grad()
def clip_grads_with_norm_(parameters, max_norm: float, total_norm: Tensor, foreach=None) -> None:
    """Scale the gradients in place by min(max_norm / (total_norm + 1e-6), 1)."""
    grads = [p.grad for p in _as_list(parameters) if p.grad is not None]
    if not grads:
        return
    coef = clamp(float(max_norm) / (total_norm + 1e-6), max=1.0)
    for g in grads:
        g.mul_(coef)


@no_grad()
def clip_grad_norm_(parameters, max_norm: float, norm_type: float = 2.0,
                    error_if_nonfinite: bool = False, foreach=None) -> Tensor:
    """Rescale the gradients so that their total `norm_type`-norm is at most `max_norm`;
    returns the total norm from before clipping.

    Example:
        >>> import gradstep.engine as torch
        >>> w = torch.ones(4, requires_grad=True)
        >>> (w * 3).sum().backward()
        >>> clip_grad_norm_([w], max_norm=1.0)
        tensor(6.)
        >>> w.grad
        tensor([0.5000, 0.5000, 0.5000, 0.5000])
    """
    is_generator = isinstance(parameters, types.GeneratorType)
    parameters = _as_list(parameters)
    if is_generator and not parameters:
        messages.warn("`parameters` is an empty generator, no gradient clipping will occur.")
    grads = [p.grad for p in parameters if p.grad is not None]
    total = get_total_norm(grads, norm_type, error_if_nonfinite, foreach)
    clip_grads_with_norm_(parameters, max_norm, total, foreach)
    return total


@no_grad()
def clip_grad_value_(parameters, clip_value: float, foreach=None) -> None:
    """Clamp every gradient in place into [-clip_value, clip_value]."""
    clip_value = float(clip_value)
    for p in _as_list(parameters):
        if p.grad is not None:
            p.grad.clamp_(min=-clip_value, max=clip_value)


def parameters_to_vector(parameters) -> Tensor:
    """All parameters flattened and joined into one vector (a graph through `cat`)."""
    return cat([p.view(-1) for p in parameters])


def vector_to_parameters(vec: Tensor, parameters) -> None:
    """Copy consecutive slices of `vec` into the parameters' `.data`, in order."""
    if not isinstance(vec, Tensor):
        raise TypeError(f"expected torch.Tensor, but got: {type(vec).__name__}")
    pointer = 0
    for param in parameters:
        n = param.numel()
        param.data = vec[pointer:pointer + n].view_as(param).data
        pointer += n


clip_grad_norm = old_spelling(clip_grad_norm_, "torch.nn.utils")   # PyTorch's FutureWarning

__all__ = ["clip_grad_norm_", "clip_grad_value_", "get_total_norm", "clip_grads_with_norm_",
           "parameters_to_vector", "vector_to_parameters", "clip_grad_norm"]
