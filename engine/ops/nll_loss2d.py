"""`nll_loss` over image-shaped inputs: NllLoss2DBackward0, what PyTorch records for an
(N, C, H, W) input and an (N, H, W) target (and, viewed to that shape, for 3-D and 5-D+).

The loss is nll_loss's, taken over every (n, h, w) position in PyTorch's loop order (batch,
then row, then column), so the sums round as PyTorch's do: the positions become the rows of
an (N*H*W, C) input for `NllLoss`'s kernel, and the results go back to the image shape.
"""
from __future__ import annotations

import numpy as np

from ..tensor import new_tensor
from .losses import NONE, NllLoss, NllLossBackward, as_saved_index


def _rows(x: np.ndarray) -> np.ndarray:
    """(N, C, H, W) -> (N*H*W, C), positions in PyTorch's order."""
    n, c = x.shape[:2]
    return np.moveaxis(x.reshape(n, c, -1), 1, 2).reshape(-1, c)


def _unrows(rows: np.ndarray, shape: tuple) -> np.ndarray:
    n, c = shape[:2]
    return np.ascontiguousarray(np.moveaxis(rows.reshape(n, -1, c), 2, 1)).reshape(shape)


class NllLoss2d(NllLoss):
    """out = reduce(-weight[t] * self[n, t, h, w]) over the kept positions, t = target[n, h, w]"""
    grad_fn_name, name = "NllLoss2DBackward0", "nll_loss2d"

    def forward(self, target, weight=None, reduction=1, ignore_index=2 ** 64 - 100):
        flat = new_tensor(target._data.reshape(-1))
        out, extras = NllLoss.forward(_rows(self), flat, weight, reduction, ignore_index)
        return (out.reshape(target._data.shape) if reduction == NONE else out), extras

    def backward(ctx, grad):
        return (NllLoss2dBackward.apply(grad, ctx.self, ctx.target, ctx.weight, ctx.reduction,
                                        ctx.ignore_index, ctx.total_weight),)

    @classmethod
    def sample_inputs(cls, make, shape):
        x = make((2, 3, 2, 2))
        target = new_tensor(x._data.argmax(1))
        for r in (0, 1, 2):
            yield make((2, 3, 2, 2)), target, None, r, as_saved_index(-100)


class NllLoss2dBackward(NllLossBackward):
    """out = -weight[t] * grad_output at each target class (/ total_weight), 0 elsewhere"""
    grad_fn_name, name = "NllLoss2DBackwardBackward0", "nll_loss2d_backward"

    def forward(grad_output, self, target, weight, reduction, ignore_index, total_weight):
        flat = new_tensor(target._data.reshape(-1))
        g = grad_output.reshape(-1) if reduction == NONE else grad_output
        rows = NllLossBackward.forward(g, _rows(self), flat, weight, reduction, ignore_index,
                                       total_weight)
        return _unrows(rows, self.shape)

    def backward(ctx, grad):
        a, b = ctx.needs_input_grad
        return (NllLoss2d.apply(grad, ctx.target, ctx.weight, ctx.reduction, ctx.ignore_index)
                if a else None, new_tensor(np.zeros_like(grad._data)) if b else None)

    @classmethod
    def sample_inputs(cls, make, shape):
        x = make((2, 3, 2, 2)).detach()
        target = new_tensor(x._data.argmax(1))
        total = new_tensor(np.asarray(8.0))
        yield make(()), x, target, None, 1, as_saved_index(-100), total
        yield make((2, 2, 2)), x, target, None, NONE, as_saved_index(-100), total


__all__ = ["NllLoss2d", "NllLoss2dBackward"]
