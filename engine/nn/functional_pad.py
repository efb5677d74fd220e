"""`F.pad`: grow (or, with negative amounts, crop) the last dimensions of a tensor.

PyTorch counterpart: `torch.nn.functional.pad`. `mode="constant"` records one
`ConstantPadNdBackward0` (`engine.ops.padding`); "reflect" and "replicate" record
`ReflectionPad1DBackward0` ... `ReplicationPad3DBackward0` (`engine.ops.padding_modes`);
"circular" is PyTorch's composite of slices copied into a new tensor, so it records
`CopySlices` nodes. Re-exported by `engine.nn.functional`.
"""
from __future__ import annotations

from ..ops import padding as _pad
from ..ops import padding_modes as _modes
from ..tensor import Tensor

_MODES = ("constant", "reflect", "replicate", "circular")
_UNSUPPORTED = ("Padding size {n} is not supported for {d}D input tensor.\n"
                "Supported combinations for non-constant padding:\n"
                "  - 2D or 3D input: padding size = 2 (pads last dimension)\n"
                "  - 3D or 4D input: padding size = 4 (pads last 2 dimensions)\n"
                "  - 4D or 5D input: padding size = 6 (pads last 3 dimensions)")


def pad(input: Tensor, pad, mode: str = "constant", value: float | None = None) -> Tensor:
    """Pad with `value` (0 by default): pad = (left, right) for the last dimension, then
    (top, bottom) for the one before, and so on. The other modes copy the input's own values
    (mirrored, repeated edges, or wrapped around) into 1 to 3 last dimensions of an input with
    one or two leading (batch, channel) dimensions.

    Example:
        >>> import gradstep.engine as torch
        >>> pad(torch.tensor([[1., 2.]]), (1, 0), value=-1.0).tolist()
        [[-1.0, 1.0, 2.0]]
        >>> pad(torch.tensor([[1., 2., 3.]]), (2, 1), mode="reflect").tolist()
        [[3.0, 2.0, 1.0, 2.0, 3.0, 2.0]]
    """
    if mode not in _MODES:
        raise NotImplementedError(f"Unrecognised padding mode {mode}")
    if mode == "constant":
        return _pad.constant_pad_nd(input, pad, 0 if value is None else value)
    pad = _pad.checked_pad(pad, input.ndim)
    if value is not None and value != 0:
        raise RuntimeError(f'Padding mode "{mode}" doesn\'t take in value argument')
    k = len(pad) // 2
    if k not in (1, 2, 3) or input.ndim not in (k + 1, k + 2):
        raise NotImplementedError(_UNSUPPORTED.format(n=len(pad), d=input.ndim))
    if mode == "circular":
        return _circular(input, pad)
    return _modes.mode_pad(input, pad, mode)


def _circular(input: Tensor, pad: tuple) -> Tensor:
    """PyTorch's `_pad_circular`: the (cropped) input copied into the middle of a new tensor,
    then for each dimension the far end copied before it and the near end after it (corners
    are written more than once), each copy a CopySlices node."""
    from ..factories import zeros
    shape, nd, k = input.shape, input.ndim, len(pad) // 2
    out_shape = list(shape)
    for i in range(k):
        dim, lo, hi = nd - 1 - i, pad[2 * i], pad[2 * i + 1]
        if lo > shape[dim] or hi > shape[dim]:
            raise RuntimeError("Padding value causes wrapping around more than once.")
        out_shape[dim] = shape[dim] + lo + hi
        if out_shape[dim] < 0:
            raise RuntimeError("Negative padding value is resulting in an empty dimension")
    out = zeros(*out_shape, dtype=input.dtype)
    out_part, in_part = out, input
    for i in range(k):
        dim, lo, hi = nd - 1 - i, pad[2 * i], pad[2 * i + 1]
        out_part = out_part.narrow(dim, max(lo, 0), out_shape[dim] - max(lo, 0) - max(hi, 0))
        in_part = in_part.narrow(dim, max(-lo, 0), shape[dim] - max(-lo, 0) - max(-hi, 0))
    out_part.copy_(in_part)
    for i in range(k):
        dim, lo, hi = nd - 1 - i, pad[2 * i], pad[2 * i + 1]
        n = out_shape[dim]
        if lo > 0:
            out.narrow(dim, 0, lo).copy_(out.narrow(dim, n - lo - max(hi, 0), lo))
        if hi > 0:
            out.narrow(dim, n - hi, hi).copy_(out.narrow(dim, max(lo, 0), hi))
    return out
