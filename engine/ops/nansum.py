"""`torch.nansum`: the sum that counts nan as zero, over every element or over dims.

PyTorch counterpart: `torch.nansum` (`NansumBackward0`, one node for both forms, saving
`self`, `dim` and `keepdim`). PyTorch's kernel adds in the order of its sum (the cascade in
`_sum_order.py`), so float32 sums keep its last bits; the gradient is grad where self is not
nan, 0 where it is.
"""
from __future__ import annotations

import numpy as np

from .._names import numpy_kwargs
from ..tensor import Tensor
from ._dims import distinct_dims
from ._op import Op
from .reduction import Sum, SumDim, _expand_scalar, _regrow, dims_of


class Nansum(Op):
    """out = sum of the elements that are not nan (over dim, or all of them)"""
    grad_fn_name, name = "NansumBackward0", "nansum"
    saves = ("dim", "keepdim", "self")
    rule = "grad broadcast back to self's shape, 0 where self is nan"

    def forward(self, dim, keepdim, dtype):
        if dtype is not None:       # (cast inside the kernel: no ToCopyBackward0)
            self = self.astype(dtype)
        if self.dtype.kind in "fc":
            self = np.where(np.isnan(self), self.dtype.type(0), self)
        if dim is None and not keepdim:
            return Sum.forward(self)
        return SumDim.forward(self, dim or tuple(range(self.ndim)), keepdim)

    def backward(ctx, grad):
        x, dim = ctx.self, ctx.dim
        shape = x._data.shape
        grad = grad.to(x.dtype)
        if dim is None and not ctx.keepdim:
            grown = _expand_scalar(grad, shape)
        else:
            grown = _regrow(grad, shape, dim or tuple(range(x.ndim)), ctx.keepdim)
        return (grown * x.isnan().logical_not(),)

    @classmethod
    def sample_inputs(cls, make, shape):
        yield make(shape), None, False, None
        if shape:
            yield make(shape), (len(shape) - 1,), True, None
            yield make(shape), (), False, None


@numpy_kwargs
def nansum(input, dim=None, keepdim=False, *, dtype=None) -> Tensor:
    """Sum treating nan as zero, of all elements or over `dim` (`torch.nansum`).

    Example:
        >>> import gradstep.engine as torch
        >>> torch.nansum(torch.tensor([[1.0, float("nan")], [2.0, 3.0]]), dim=1).tolist()
        [1.0, 5.0]
    """
    if input._data.dtype.kind == "c":
        raise RuntimeError("nansum on CPU does not support complex inputs")
    if dim is not None:
        dim = distinct_dims(dims_of(dim, input.ndim))
    return Nansum.apply(input, dim, keepdim, None if dtype is None else dtype.np)
