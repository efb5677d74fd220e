"""What a fused kernel shows an observer: one op, never the engine ops it is computed with.

PyTorch's CPU build runs some composites as one kernel and records one node for them
(`MkldnnRnnLayerBackward0` for a float32 `nn.LSTM` layer,
`ScaledDotProductFlashAttentionForCpuBackward0` for 4-D attention). The engine computes such
a kernel with its own ops, forward and again in backward; those ops, the tensors they make
and the backward pass that differentiates them are the kernel's business, as PyTorch's
kernel's loops are, so the listener (the tracer) is told nothing of them. It is told of the
fused op itself, once per output, as a several-output op such as `unbind` tells it.
"""
from __future__ import annotations

from contextlib import contextmanager

from .. import _events
from ..grad_mode import state as _grad_state


@contextmanager
def inside_kernel():
    """Run the block unobserved: no events reach the listener while it runs."""
    listener = _events.set_listener(None)
    quiet, _grad_state.quiet = _grad_state.quiet, True
    try:
        yield
    finally:
        _grad_state.quiet = quiet
        _events.set_listener(listener)


def report(name: str, inputs: tuple, outputs: tuple, node) -> None:
    """Tell the listener that the fused op `name` made `outputs` from `inputs` (None inputs,
    an absent bias, are left out)."""
    if _events.listener is not None and not _grad_state.quiet:
        given = tuple(t for t in inputs if t is not None)
        for out in outputs:
            _events.listener.on_op(name, given, out, node)
