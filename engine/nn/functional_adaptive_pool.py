"""`F.adaptive_avg_pool1d/2d` and `F.adaptive_max_pool1d/2d`: PyTorch's checks, then one op.

PyTorch counterparts: `torch.nn.functional.adaptive_avg_pool2d` (`AdaptiveAvgPool2DBackward0`,
or `MeanBackward1` for an output of 1x1, which PyTorch computes as a mean over the last two
dims) and `adaptive_max_pool2d` (`AdaptiveMaxPool2DBackward0`). The 1-D forms unsqueeze dim -2,
pool and squeeze it, as PyTorch does, so their grad_fn is `SqueezeBackward1`. An output size of
None keeps that input size. Re-exported by `engine.nn.functional`.
"""
from __future__ import annotations

from ..ops import adaptive_pooling as _adaptive
from ..tensor import Tensor


def _output_pair(input: Tensor, output_size) -> tuple:
    """PyTorch's `_list_with_default`, then its length check: an int, or one size per trailing
    dim with None meaning that dim's size."""
    if isinstance(output_size, int):
        return (output_size, output_size)
    if input.ndim <= len(output_size):
        raise ValueError(f"Input dimension should be at least {len(output_size) + 1}")
    tail = input.shape[-len(output_size):]
    return tuple(int(d if v is None else v) for v, d in zip(output_size, tail))


def _check(name: str, input: Tensor, out: tuple, colon: str) -> None:
    if input.ndim not in (3, 4):
        raise RuntimeError(f"{name}(): Expected 3D or 4D tensor, but got{colon} "
                           f"{list(input.shape)}")
    for dim in range(input.ndim - 2, input.ndim):     # a batch or channel dim may be empty
        if input.shape[dim] == 0:
            raise RuntimeError(f"{name}(): Expected input to have non-zero size for non-batch "
                               f"dimensions, but input has sizes {list(input.shape)} with "
                               f"dimension {dim} being empty")
    if min(out) < 0:
        if name == "adaptive_max_pool2d":
            raise RuntimeError(f"Trying to create tensor with negative dimension {min(out)}: "
                               f"{list(input.shape[:-2]) + list(out)}")
        raise RuntimeError(f"{name}: elements of output_size must be greater than or equal to "
                           f"0 but received {{{out[0]}, {out[1]}}}")
    if not input.dtype.is_floating_point:
        from .functional import _dtype_word   # functional imports this module at its end
        raise NotImplementedError(f'"{name}" not implemented for \'{_dtype_word(input)}\'')


def adaptive_avg_pool2d(input: Tensor, output_size) -> Tensor:
    """The mean of each of output_size windows that together cover the input's last two dims.

    Example:
        >>> import gradstep.engine as torch
        >>> adaptive_avg_pool2d(torch.arange(16.).reshape(1, 4, 4), 2).tolist()
        [[[2.5, 4.5], [10.5, 12.5]]]
    """
    out = _output_pair(input, output_size)
    if len(out) != 2:
        raise RuntimeError("adaptive_avg_pool2d: output_size must be 2")
    _check("adaptive_avg_pool2d", input, out, "")
    if out == (1, 1):
        return input.mean((-1, -2), keepdim=True)
    return _adaptive.AdaptiveAvgPool2D.apply(input, out)


def adaptive_max_pool2d(input: Tensor, output_size, return_indices: bool = False):
    """The maximum of each of output_size windows that together cover the last two dims.

    Example:
        >>> import gradstep.engine as torch
        >>> adaptive_max_pool2d(torch.arange(16.).reshape(1, 4, 4), 2).tolist()
        [[[5.0, 7.0], [13.0, 15.0]]]
    """
    out = _output_pair(input, output_size)
    if len(out) != 2:
        raise RuntimeError("adaptive_max_pool2d(): internal error: output_size.size() must be 2")
    _check("adaptive_max_pool2d", input, out, ":")
    values, indices = _adaptive.AdaptiveMaxPool2D.apply(input, out)
    return (values, indices) if return_indices else values


def _one(name: str, input: Tensor, output_size) -> int:
    if isinstance(output_size, (tuple, list)):
        if len(output_size) != 1:
            raise RuntimeError(f"{name}() argument 'output_size' should contain one int (got "
                               f"{len(output_size)})")
        output_size = output_size[0]
    if output_size is None:
        raise TypeError(f"{name}(): argument 'output_size' (position 2) must be tuple of ints, "
                        "not NoneType")
    if input.ndim not in (2, 3):
        raise RuntimeError(f"Expected 2 to 3 dimensions, but got {input.ndim}-dimensional "
                           f"tensor for argument #1 'self' (while checking arguments for {name})")
    return int(output_size)


def adaptive_avg_pool1d(input: Tensor, output_size) -> Tensor:
    """adaptive_avg_pool2d over a height of one.

    Example:
        >>> import gradstep.engine as torch
        >>> adaptive_avg_pool1d(torch.tensor([[1., 3., 2.]]), 2).tolist()
        [[2.0, 2.5]]
    """
    size = _one("adaptive_avg_pool1d", input, output_size)
    return adaptive_avg_pool2d(input.unsqueeze(-2), (1, size)).squeeze(-2)


def adaptive_max_pool1d(input: Tensor, output_size, return_indices: bool = False):
    """adaptive_max_pool2d over a height of one.

    Example:
        >>> import gradstep.engine as torch
        >>> adaptive_max_pool1d(torch.tensor([[1., 3., 2.]]), 2).tolist()
        [[3.0, 3.0]]
    """
    size = _one("adaptive_max_pool1d", input, output_size)
    if input.shape[-1] == 0:
        raise RuntimeError("adaptive_max_pool1d(): Expected input to have non-zero size for "
                           f"non-batch dimensions, but input has sizes {list(input.shape)} with "
                           f"dimension {input.ndim - 1} being empty")
    values, indices = adaptive_max_pool2d(input.unsqueeze(-2), (1, size), True)
    values = values.squeeze(-2)
    return (values, indices.squeeze(-2)) if return_indices else values
