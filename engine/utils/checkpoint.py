"""`torch.utils.checkpoint`: trade compute for memory by running a piece of the forward again
during backward instead of keeping what it saved.

PyTorch counterparts: `checkpoint` and `checkpoint_sequential`. With `use_reentrant=True` (the
default when it is not given, with PyTorch's warning) the piece runs under no_grad and its
output hangs off one `CheckpointFunctionBackward` node, whose backward reruns the piece with
grad on and runs a backward of its own through it. With `use_reentrant=False` the piece
records its usual graph, but every tensor it saves is dropped (a saved-tensors hook) and the
piece is rerun the first time the backward needs one. Both reruns draw the same random
numbers as the first run (`preserve_rng_state`).
"""
from __future__ import annotations

import contextlib

from .. import messages
from ..autograd.function import Function
from ..autograd.graph import saved_tensors_hooks
from ..factories import default_generator
from .. import _events
from ..grad_mode import enable_grad, no_grad
from ..grad_mode import state as _grad_state
from ..tensor import Tensor
from ..autograd.walk import backward as run_backward
from ..nn.container import Sequential

_WARN_CHECKPOINT = (
    "torch.utils.checkpoint: the use_reentrant parameter should be passed explicitly. Starting "
    "in PyTorch 2.9, calling checkpoint without use_reentrant will raise an exception. "
    "use_reentrant=False is recommended, but if you need to preserve the current default "
    "behavior, you can pass use_reentrant=True. Refer to docs for more details on the "
    "differences between the two variants.")
_WARN_SEQUENTIAL = (
    "torch.utils.checkpoint.checkpoint_sequential: the use_reentrant parameter should be passed "
    "explicitly. In version 2.9 we will raise an exception if use_reentrant is not passed. "
    "use_reentrant=False is recommended, but if you need to preserve the current default "
    "behavior, you can pass use_reentrant=True. Refer to docs for more details on the "
    "differences between the two variants.")


def _detached(args: tuple) -> tuple:
    return tuple(a.detach().requires_grad_(a.requires_grad) if isinstance(a, Tensor) else a
                 for a in args)


@contextlib.contextmanager
def _told(function, rerun: bool):
    """Tell a listener that the program's `function` runs under checkpoint, first or again
    (`Listener.on_checkpoint`), so that a picture can frame what it did."""
    told = _events.listener
    if told is not None:
        told.on_checkpoint(function, rerun, True)
    try:
        yield
    finally:
        if told is not None and _events.listener is told:
            told.on_checkpoint(function, rerun, False)


def _rerun(function, args: tuple, snap, shown=None):
    """function(*args) again with grad on, drawing from where the first run drew.

    Unlike the backward pass's own arithmetic, the rerun is the program's code: its ops are
    reported to a listener, as the rerun of `shown` (the function the program gave;
    `function` itself by default).
    """
    after = default_generator.snapshot() if snap is not None else None
    if snap is not None:
        default_generator.restore(snap)
    quiet, _grad_state.quiet = _grad_state.quiet, False
    try:
        with _told(function if shown is None else shown, True), enable_grad():
            return function(*args)
    finally:
        _grad_state.quiet = quiet
        if after is not None:
            default_generator.restore(after)


class CheckpointFunction(Function):
    """The reentrant checkpoint: forward without a graph, backward by rerunning it."""

    # its backward runs the program's function again: a tracer must not run it for its own
    # illustrations (runner/local_jacobian.runs_program_code)
    calls_program = True

    @staticmethod
    def forward(ctx, run_function, preserve_rng_state, *args):
        if not any(a.requires_grad for a in args if isinstance(a, Tensor)):
            # the module's parameters do not count: only what is passed in is differentiated
            messages.warn("None of the inputs have requires_grad=True. Gradients will be None",
                          UserWarning)
        ctx.run_function = run_function
        ctx.snap = default_generator.snapshot() if preserve_rng_state else None
        ctx.args = [None if isinstance(a, Tensor) else a for a in args]
        ctx.save_for_backward(*[a for a in args if isinstance(a, Tensor)])
        with no_grad(), _told(run_function, False):
            return run_function(*args)

    @staticmethod
    def backward(ctx, *grads):
        tensors = iter(ctx.saved_tensors)
        args = _detached(tuple(next(tensors) if a is None else a for a in ctx.args))
        outputs = _rerun(ctx.run_function, args, ctx.snap)
        outputs = (outputs,) if isinstance(outputs, Tensor) else tuple(outputs)
        pairs = [(o, g) for o, g in zip(outputs, grads)
                 if isinstance(o, Tensor) and o.requires_grad]
        if not pairs:
            raise RuntimeError("none of output has requires_grad=True, this checkpoint() is "
                               "not necessary")
        run_backward([o for o, _ in pairs], [g for _, g in pairs])
        return (None, None) + tuple(a.grad if isinstance(a, Tensor) else None for a in args)


def _without_reentrant(function, args: tuple, kwargs: dict, preserve_rng_state: bool):
    snap = default_generator.snapshot() if preserve_rng_state else None
    frame: dict = {"count": 0, "again": None}

    def pack(t):                # keep only the position of the save
        frame["count"] += 1
        return frame["count"] - 1

    def unpack(i):              # the first save the backward asks for reruns the piece
        if frame["again"] is None:
            kept: list = []
            with saved_tensors_hooks(lambda t: kept.append(t) or len(kept) - 1,
                                     lambda j: kept[j]):
                _rerun(lambda *a: function(*a, **kwargs), _detached(args), snap, function)
            frame["again"] = kept
        return frame["again"][i]

    with saved_tensors_hooks(pack, unpack), _told(function, False):
        return function(*args, **kwargs)


def checkpoint(function, *args, use_reentrant: bool | None = None, context_fn=None,
               determinism_check: str = "default", debug: bool = False,
               preserve_rng_state: bool = True, **kwargs):
    """function(*args), keeping nothing it saves for backward; rerun when backward needs it.

    Example:
        >>> import gradstep.engine as torch
        >>> x = torch.ones(2, requires_grad=True)
        >>> y = checkpoint(torch.exp, x, use_reentrant=True)
        >>> type(y.grad_fn).__name__
        'CheckpointFunctionBackward'
    """
    if use_reentrant is None:
        messages.warn(_WARN_CHECKPOINT, UserWarning)
        use_reentrant = True
    if use_reentrant:
        if kwargs:
            raise ValueError("Unexpected keyword arguments: " + ",".join(kwargs))
        return CheckpointFunction.apply(function, preserve_rng_state, *args)
    return _without_reentrant(function, args, kwargs, preserve_rng_state)


def checkpoint_sequential(functions, segments: int, input, use_reentrant: bool | None = None,
                          **kwargs):
    """Run a Sequential (or a list of modules) in `segments` pieces, each checkpointed but
    the last, which runs as usual."""
    if use_reentrant is None:
        messages.warn(_WARN_SEQUENTIAL, UserWarning)
        use_reentrant = True
    preserve = kwargs.pop("preserve_rng_state", True)
    if kwargs:
        raise ValueError("Unexpected keyword arguments: " + ",".join(kwargs))
    if isinstance(functions, Sequential):
        functions = list(functions.children())

    def run(start: int, end: int):
        def forward(x):
            for j in range(start, end + 1):
                x = functions[j](x)
            return x
        return forward

    size = len(functions) // segments
    end = -1
    for start in range(0, size * (segments - 1), size):
        end = start + size - 1
        input = checkpoint(run(start, end), input, use_reentrant=use_reentrant,
                           preserve_rng_state=preserve)
    return run(end + 1, len(functions) - 1)(input)


__all__ = ["checkpoint", "checkpoint_sequential"]
