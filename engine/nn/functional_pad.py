"""`F.pad`: grow (or, with negative amounts, crop) the last dimensions of a tensor.

PyTorch counterpart: `torch.nn.functional.pad`. Only `mode="constant"` is offered; it records
one `ConstantPadNdBackward0` (the op is `engine.ops.padding.ConstantPadNd`). Re-exported by
`engine.nn.functional`.
"""
from __future__ import annotations

from ..ops import padding as _pad
from ..tensor import Tensor

_MODES = ("constant", "reflect", "replicate", "circular")


def pad(input: Tensor, pad, mode: str = "constant", value: float | None = None) -> Tensor:
    """Pad with `value` (0 by default): pad = (left, right) for the last dimension, then
    (top, bottom) for the one before, and so on.

    Example:
        >>> import engine as torch
        >>> pad(torch.tensor([[1., 2.]]), (1, 0), value=-1.0).tolist()
        [[-1.0, 1.0, 2.0]]
    """
    if mode not in _MODES:
        raise NotImplementedError(f"Unrecognised padding mode {mode}")
    if mode != "constant":
        raise NotImplementedError(f"F.pad: mode={mode!r} is not supported here; only "
                                  "'constant' is")
    return _pad.constant_pad_nd(input, pad, 0 if value is None else value)
