"""The losses' derivative kernels as ops of their own (PyTorch's `mse_loss_backward`,
`huber_loss_backward`, `smooth_l1_loss_backward`, `binary_cross_entropy_backward`): under
`create_graph=True` a loss's gradient prints MseLossBackwardBackward0 & co., as in PyTorch
(grad_ops.py says why these are ops).
"""
from __future__ import annotations

import numpy as np

from ..tensor import new_tensor
from ._broadcast import sum_to
from ._op import Op

MEAN, SUM = 1, 2      # reductions as losses.py numbers them (0 is none)


class MseLossBackward(Op):
    """out = 2 * (self - target) * grad_output (/ numel for the mean)"""
    grad_fn_name, name, n_inputs = "MseLossBackwardBackward0", "mse_loss_backward", 3
    saves = ("grad_output", "reduction", "self", "target")
    rule = "sum of grad * 2 * (self - target), grad * grad_output * 2, and its negative"

    def forward(grad_output, self, target, reduction):
        norm = 2.0 / self.size if reduction == MEAN else 2.0
        d = self - target
        if type(d) is np.ndarray and grad_output.dtype == d.dtype \
                and grad_output.shape in ((), d.shape):
            # the same two products, into the fresh difference (no temporaries)
            np.multiply(d, norm, out=d)
            return np.multiply(d, grad_output, out=d).astype(self.dtype, copy=False)
        return (d * norm * grad_output).astype(self.dtype, copy=False)

    def backward(ctx, grad):
        a, b, c = ctx.needs_input_grad
        x = ctx.self
        norm = 2.0 / x._data.size if ctx.reduction == MEAN else 2.0
        dx = None
        if b or c:      # PyTorch's mse_loss_double_backward: 2 * (grad * grad_output) / numel
            dx = grad * ctx.grad_output * 2
            dx = dx / x._data.size if ctx.reduction == MEAN else dx
        return (sum_to(grad * (x - ctx.target) * norm, ctx.grad_output._data.shape)
                if a else None, dx if b else None, -dx if c else None)

    @classmethod
    def sample_inputs(cls, make, shape):
        yield make(()), make(shape), make(shape), MEAN
        yield make(shape), make(shape), make(shape), 0


def _norm(x: np.ndarray, reduction: int):
    """The factor PyTorch's loss backward kernels scale by: 1 / numel for a mean, else 1."""
    return x.dtype.type(1 / x.size if reduction == MEAN else 1)


class _PiecewiseLossBackward(Op):
    """Shared by HuberLossBackward and SmoothL1LossBackward: n_inputs 3 (grad_output, self,
    target), then reduction and the width of the quadratic part."""
    n_inputs = 3
    saves = ("grad_output", "reduction", "self", "target", "_width")

    @staticmethod
    def shape_of(width: float) -> tuple:       # (slope inside, cap outside)
        raise NotImplementedError

    @classmethod
    def _backward(cls, ctx, grad):
        a, b, c = ctx.needs_input_grad
        x, t, r, width = ctx.self, ctx.target, ctx.reduction, ctx._width
        dx = None
        if b or c:      # the loss's second derivative: a constant slope inside, 0 outside
            d = (x - t)._data       # (PyTorch: grad * grad_output * inside [/ beta] [/ numel])
            inside = (np.abs(d) < width).astype(d.dtype)
            dx = grad * ctx.grad_output * new_tensor(inside)
            if cls.shape_of(width)[0] != 1:
                dx = dx / width
            if r == MEAN:
                dx = dx / d.size
        # d/d grad_output is this op again with grad in its place, so it stays differentiable
        return (sum_to(cls.apply(grad, x, t, r, width), ctx.grad_output._data.shape)
                if a else None, dx if b else None, -dx if c else None)


class HuberLossBackward(_PiecewiseLossBackward):
    """out = grad_output * (d inside delta, delta * sign(d) outside) (/ numel), d = self - target"""
    grad_fn_name, name = "HuberLossBackwardBackward0", "huber_loss_backward"
    rule = "sum of grad * dloss, grad * grad_output * [|d| < delta], and its negative"
    shape_of = staticmethod(lambda delta: (1.0, delta))

    def forward(grad_output, self, target, reduction, _width):
        # PyTorch's kernel: norm * d * g inside, +-norm * g * delta outside, norm = 1 / numel
        norm, d = _norm(self, reduction), self - target
        inside = norm * d * grad_output
        outside = np.where(d < 0, -norm, norm) * grad_output * self.dtype.type(_width)
        return np.where(np.abs(d) < _width, inside, outside).astype(self.dtype, copy=False)

    def backward(ctx, grad):
        return HuberLossBackward._backward(ctx, grad)

    @classmethod
    def sample_inputs(cls, make, shape):
        yield make(()), make(shape), make(shape), MEAN, 0.5
        yield make(shape), make(shape), make(shape), 0, 0.5


class SmoothL1LossBackward(_PiecewiseLossBackward):
    """out = grad_output * (d / beta inside beta, sign(d) outside) (/ numel), d = self - target"""
    grad_fn_name, name = "SmoothL1LossBackwardBackward0", "smooth_l1_loss_backward"
    rule = "sum of grad * dloss, grad * grad_output * [|d| < beta] / beta, and its negative"
    shape_of = staticmethod(lambda beta: (1 / beta if beta else 0.0, 1.0))

    def forward(grad_output, self, target, reduction, _width):
        if not _width:
            n = self.size if reduction == MEAN else 1
            return (np.sign(self - target) * grad_output / n).astype(self.dtype, copy=False)
        # PyTorch's kernel: norm * d * g / beta inside, +-norm * g outside, norm = 1 / numel
        norm, d = _norm(self, reduction), self - target
        inside = norm * d * grad_output / self.dtype.type(_width)
        outside = np.where(d < 0, -norm, norm) * grad_output
        return np.where(np.abs(d) < _width, inside, outside).astype(self.dtype, copy=False)

    def backward(ctx, grad):
        return SmoothL1LossBackward._backward(ctx, grad)

    @classmethod
    def sample_inputs(cls, make, shape):
        yield make(()), make(shape), make(shape), MEAN, 0.5
        yield make(shape), make(shape), make(shape), SUM, 0.5


_BCE_EPS = 1e-12


class BinaryCrossEntropyBackward(Op):
    """out = grad_output * (self - target) / max((1 - self) * self, 1e-12), weighted (/ numel)"""
    grad_fn_name, n_inputs = "BinaryCrossEntropyBackwardBackward0", 3
    name = "binary_cross_entropy_backward"
    saves = ("grad_output", "reduction", "self", "target", "weight")
    rule = "PyTorch's binary_cross_entropy_double_backward (and _grad_output, _target)"

    def forward(grad_output, self, target, weight=None, reduction=MEAN):
        dt = self.dtype.type        # PyTorch's kernel, then grad_input *= weight, /= numel
        out = grad_output * (self - target) / np.maximum((dt(1) - self) * self, dt(_BCE_EPS))
        if weight is not None:
            out = out * weight._data
        if reduction == MEAN:
            out = out / dt(self.size)
        return out.astype(self.dtype, copy=False)

    def backward(ctx, grad):
        from .arithmetic import AddScalar, MulScalar
        from .nn_ops import DivScalar
        a, b, c = ctx.needs_input_grad
        x, t, w, r, go = ctx.self, ctx.target, ctx.weight, ctx.reduction, ctx.grad_output
        n = x._data.size
        # PyTorch's `1 - input + eps`: 1 - input fills a tensor with 1 and subtracts in place
        one = new_tensor(np.ones_like(x._data))
        x_eps, one_m_eps = AddScalar.apply(x, _BCE_EPS), AddScalar.apply(one - x, _BCE_EPS)
        g_go = gx = gt = None
        if a:       # binary_cross_entropy_double_backward_grad_output
            g_go = (x - t) / (x_eps * one_m_eps) * grad
            g_go = g_go * w if w is not None else g_go
            if r != 0:
                g_go = sum_to(g_go, ())
                g_go = DivScalar.apply(g_go, n) if r == MEAN else g_go
        if b:       # binary_cross_entropy_double_backward
            gx = (x * x - MulScalar.apply(x, 2) * t + t) / (x_eps ** 2 * one_m_eps ** 2)
            gx = gx * (grad * go)
            gx = gx * w if w is not None else gx
            gx = DivScalar.apply(gx, n) if r == MEAN else gx
        if c:       # binary_cross_entropy_double_backward_target
            gt = -grad * go / (x_eps * one_m_eps)
            gt = gt * w if w is not None else gt
            gt = DivScalar.apply(gt, n) if r == MEAN else gt
        return g_go, gx, gt

    @classmethod
    def sample_inputs(cls, make, shape):
        yield make(()), make(shape, 0.1, 0.9), make(shape, 0.0, 1.0), None, MEAN
        yield make(shape), make(shape, 0.1, 0.9), make(shape, 0.0, 1.0), None, 0
