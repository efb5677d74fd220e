"""The losses `torch.nn.functional` records as nodes of their own: mse, smooth L1, huber,
binary cross entropy (with and without logits) and nll (cross entropy's last step).

PyTorch counterparts: `F.mse_loss`, `F.smooth_l1_loss`, `F.huber_loss`,
`F.binary_cross_entropy`, `F.binary_cross_entropy_with_logits` and `F.nll_loss`. The checks on
shapes, the warnings and the composite functions (`cross_entropy`) live in
`engine/nn/functional.py`; these classes assume valid, same-shaped inputs. `reduction` is
PyTorch's integer code (0 none, 1 mean, 2 sum), which is what its nodes save.
"""
from __future__ import annotations

import numpy as np

from ..tensor import Tensor, new_tensor
from ._exact import via64
from ._op import Op
from .grad_ops_losses import (BinaryCrossEntropyBackward, HuberLossBackward, MseLossBackward,
                              SmoothL1LossBackward)
from .nn_ops import DivScalar
from .reduction import Mean, Sum

NONE, MEAN, SUM = 0, 1, 2
REDUCTIONS = {"none": NONE, "mean": MEAN, "sum": SUM}


def _reduce(loss: np.ndarray, reduction: int) -> np.ndarray:
    if reduction == MEAN:      # PyTorch's loss.mean() and loss.sum(): their order of additions
        return Mean.forward(loss)
    if reduction == SUM:
        return Sum.forward(loss)
    return loss


def _finish(g: Tensor, weight, reduction: int, numel: int) -> Tensor:
    """Weight, then share among the elements for a mean: PyTorch's order of rounding."""
    if weight is not None:
        g = g * weight
    # PyTorch's grad_input.div_(numel): a Tensor-by-Scalar division (DivBackward1)
    return DivScalar.apply(g, numel) if reduction == MEAN else g


_via64_exp, _via64_log, _via64_log1p = via64(np.exp), via64(np.log), via64(np.log1p)


class MseLoss(Op):
    """out = reduce((self - target) ** 2)"""
    grad_fn_name, name, n_inputs = "MseLossBackward0", "mse_loss", 2
    saves = ("reduction", "self", "target")
    rule = "2 * (self - target) * grad (/ numel for mean), and its negative for target"
    float_only = True

    def forward(self, target, reduction=MEAN):
        d = self - target
        if type(d) is np.ndarray:       # a fresh array (a scalar for 0-d): square it in place
            return _reduce(np.multiply(d, d, out=d), reduction)
        return _reduce(d * d, reduction)

    def backward(ctx, grad):
        a, b = ctx.needs_input_grad     # PyTorch's mse_loss_backward, its own node
        x, t, r = ctx.self, ctx.target, ctx.reduction
        return (MseLossBackward.apply(grad, x, t, r) if a else None,
                MseLossBackward.apply(grad, t, x, r) if b else None)

    def jvp(ctx, self_t, target_t):
        # PyTorch's: mse_loss_backward of each tangent, unreduced, then the reduction
        x, t = ctx.self, ctx.target
        out = None if self_t is None else MseLossBackward.apply(self_t, x, t, NONE)
        if target_t is not None:
            term = MseLossBackward.apply(target_t, t, x, NONE)
            out = term if out is None else out + term
        out = out.mean() if ctx.reduction == MEAN else out.sum() if ctx.reduction == SUM \
            else out
        if not out.requires_grad:
            return out
        # PyTorch copies the tangent into a fresh one: CopyBackwards is its grad_fn then
        from ..factories import zeros_like
        return zeros_like(out).copy_(out)

    @classmethod
    def sample_inputs(cls, make, shape):
        for r in (MEAN, SUM, NONE):
            yield make(shape), make(shape), r


class SmoothL1Loss(Op):
    """out = reduce(0.5 * d**2 / beta if |d| < beta else |d| - 0.5 * beta), d = self - target"""
    grad_fn_name, name, n_inputs = "SmoothL1LossBackward0", "smooth_l1_loss", 2
    saves = ("beta", "reduction", "self", "target")
    rule = "d / beta inside beta, sign(d) outside, times grad (/ numel for mean)"
    float_only = True

    def forward(self, target, reduction=MEAN, beta=1.0):
        a = np.abs(self - target)
        small = 0.5 * a * a / beta if beta else a
        return _reduce(np.where(a < beta, small, a - 0.5 * beta).astype(a.dtype), reduction)

    def backward(ctx, grad):
        a, b = ctx.needs_input_grad     # PyTorch's smooth_l1_loss_backward, its own node
        x, t, r, beta = ctx.self, ctx.target, ctx.reduction, ctx.beta
        return (SmoothL1LossBackward.apply(grad, x, t, r, beta) if a else None,
                SmoothL1LossBackward.apply(grad, t, x, r, beta) if b else None)

    @classmethod
    def sample_inputs(cls, make, shape):
        for r in (MEAN, SUM, NONE):
            yield make(shape), make(shape), r, 0.5


class HuberLoss(Op):
    """out = reduce(0.5 * d**2 if |d| < delta else delta * (|d| - delta / 2)), d = self - target"""
    grad_fn_name, name, n_inputs = "HuberLossBackward0", "huber_loss", 2
    saves = ("delta", "reduction", "self", "target")
    rule = "d inside delta, delta * sign(d) outside, times grad (/ numel for mean)"
    float_only = True

    def forward(self, target, reduction=MEAN, delta=1.0):
        a = np.abs(self - target)
        out = np.where(a < delta, 0.5 * a * a, delta * (a - 0.5 * delta)).astype(a.dtype)
        return _reduce(out, reduction)

    def backward(ctx, grad):
        a, b = ctx.needs_input_grad     # PyTorch's huber_loss_backward, its own node
        x, t, r, delta = ctx.self, ctx.target, ctx.reduction, ctx.delta
        return (HuberLossBackward.apply(grad, x, t, r, delta) if a else None,
                HuberLossBackward.apply(grad, t, x, r, delta) if b else None)

    @classmethod
    def sample_inputs(cls, make, shape):
        for r in (MEAN, SUM, NONE):
            yield make(shape), make(shape), r, 0.5


class BinaryCrossEntropyWithLogits(Op):
    """out = reduce(weight * ((1 - target) * self + lw * softplus(-self))),
    lw = 1 + (pos_weight - 1) * target"""
    grad_fn_name, n_inputs = "BinaryCrossEntropyWithLogitsBackward0", 2
    name = "binary_cross_entropy_with_logits"
    saves = ("pos_weight", "reduction", "self", "target", "weight")
    rule = "(sigmoid(self) - target) * grad, -self * grad (weighted; / numel for mean)"
    float_only = True

    def forward(self, target, weight=None, pos_weight=None, reduction=MEAN):
        # PyTorch: (1 - t) * x - log_sigmoid(x), log_sigmoid(x) = min(x, 0) - log1p(e**-|x|)
        log_sig = np.minimum(self, 0) - _via64_log1p(_via64_exp(-np.abs(self)))
        if pos_weight is not None:
            log_sig = log_sig * ((pos_weight._data - 1) * target + 1)
        loss = (1 - target) * self - log_sig
        if weight is not None:
            loss = loss * weight._data
        return _reduce(loss.astype(self.dtype, copy=False), reduction)

    def backward(ctx, grad):
        a, b = ctx.needs_input_grad
        x, t, pw, w = ctx.self, ctx.target, ctx.pos_weight, ctx.weight
        n, r = x._data.size, ctx.reduction
        gx = gt = None
        if pw is None:
            if a:
                gx = _finish((x.sigmoid() - t) * grad, w, r, n)
            if b:
                gt = _finish(-x * grad, w, r, n)
        else:
            u = pw * t
            if a:
                gx = _finish(((u + 1 - t) * x.sigmoid() - u) * grad, w, r, n)
            if b:
                s = x.sigmoid()
                gt = _finish(((1 - s).log() - pw * s.log()) * grad, w, r, n)
        return (gx, gt)

    @classmethod
    def sample_inputs(cls, make, shape):
        for r in (MEAN, SUM, NONE):
            yield make(shape), make(shape, 0.0, 1.0), None, None, r
        w = make(shape[-1:], 0.5, 2.0).detach()
        yield make(shape), make(shape, 0.0, 1.0), w, make(shape[-1:], 0.5, 3.0).detach(), MEAN


class BinaryCrossEntropy(Op):
    """out = reduce(-weight * (target * log(self) + (1 - target) * log(1 - self)))"""
    grad_fn_name, name, n_inputs = "BinaryCrossEntropyBackward0", "binary_cross_entropy", 2
    saves = ("reduction", "self", "target", "weight")
    rule = "(self - target) / (self * (1 - self)) * grad, log((1 - self) / self) * grad"
    float_only = True

    def forward(self, target, weight=None, reduction=MEAN):
        if ((self < 0) | (self > 1)).any() or np.isnan(self).any():
            raise RuntimeError("all elements of input should be between 0 and 1")
        # PyTorch clamps each log at -100 so that 0 * log(0) stays finite
        log_x = np.maximum(_via64_log(self), -100)
        log_1mx = np.maximum(_via64_log1p(-self), -100)
        loss = (target - 1) * log_1mx - target * log_x      # PyTorch's kernel, its order
        if weight is not None:
            loss = loss * weight._data
        return _reduce(loss.astype(self.dtype, copy=False), reduction)

    def backward(ctx, grad):
        a, b = ctx.needs_input_grad
        x, t, w = ctx.self, ctx.target, ctx.weight
        n, r = x._data.size, ctx.reduction
        gx = gt = None
        if a:   # PyTorch's binary_cross_entropy_backward, its own node (1e-12 floor inside)
            gx = BinaryCrossEntropyBackward.apply(grad, x, t, w, r)
        if b:   # -logit(x), the form PyTorch uses (so signs of zeros agree too)
            gt = _finish(-(x / (1 - x)).log() * grad, w, r, n)
        return (gx, gt)

    @classmethod
    def sample_inputs(cls, make, shape):
        for r in (MEAN, SUM, NONE):
            yield make(shape, 0.1, 0.9), make(shape, 0.0, 1.0), None, r
        yield make(shape, 0.1, 0.9), make(shape, 0.0, 1.0), make(shape[-1:], 0.5, 2).detach(), 1


class NllLoss(Op):
    """out = reduce(-weight[target] * self[n, target[n]]) over the non-ignored n"""
    grad_fn_name, name = "NllLossBackward0", "nll_loss"
    jvp = "linear"
    saves = ("ignore_index", "reduction", "self", "target", "total_weight", "weight")
    forward_extras = ("total_weight",)
    rule = "-weight[target] * grad at each target class (/ total_weight for mean), 0 elsewhere"
    float_only = True

    def forward(self, target, weight=None, reduction=MEAN, ignore_index=2 ** 64 - 100):
        x2 = self.reshape(1, -1) if self.ndim == 1 else self
        t = target._data.reshape(-1).astype(np.int64)
        coef = _nll_coefficients(x2.shape, t, weight, ignore_index, self.dtype)
        picked = -(x2 * coef).sum(1)
        total = coef.sum(dtype=self.dtype)
        if reduction != NONE and x2.shape[0] <= _NLL_LOOP_MAX:    # PyTorch's order of sums
            keep = t != _signed(ignore_index)
            w = None if weight is None else coef.sum(1)
            out, total = _nll_cascade(picked, w, keep, x2.shape[0] - int(keep.sum()))
            return (out / total if reduction == MEAN else out), (new_tensor(total),)
        if reduction == MEAN:
            # PyTorch divides by the summed weights of the kept targets (nan when none kept)
            out = np.asarray(picked.sum() / total, dtype=self.dtype)
        elif reduction == SUM:
            out = np.asarray(picked.sum(), dtype=self.dtype)
        else:       # PyTorch writes +0 at an ignored target (the product would be -0)
            out = np.where(t == _signed(ignore_index), self.dtype.type(0),
                           picked).reshape(target._data.shape)
        return out, (new_tensor(np.asarray(total, dtype=self.dtype)),)

    def backward(ctx, grad):        # PyTorch's nll_loss_backward, its own node
        return (NllLossBackward.apply(grad, ctx.self, ctx.target, ctx.weight, ctx.reduction,
                                      ctx.ignore_index, ctx.total_weight),)

    @classmethod
    def sample_inputs(cls, make, shape):
        n, c = (shape + (2, 3))[:2]
        target = new_tensor(make((n, c))._data.argmax(1))
        for r in (MEAN, SUM, NONE):
            yield make((n, c)), target, None, r, as_saved_index(-100)
        w = make((c,), 0.5, 2.0).detach()
        first = int(target._data[0])
        # ignore one class, unless that would ignore every row (a mean over nothing is nan)
        ignore = first if (target._data != first).any() else -100
        yield make((n, c)), target, w, MEAN, as_saved_index(ignore)
        yield make((c,)), new_tensor(np.array(c - 1)), None, MEAN, as_saved_index(-100)


class NllLossBackward(Op):
    """out = -weight[target] * grad_output at each target class (/ total_weight), 0 elsewhere"""
    grad_fn_name, name, n_inputs = "NllLossBackwardBackward0", "nll_loss_backward", 2
    saves = ("ignore_index", "reduction", "target", "weight")
    rule = "nll_loss of grad (to grad_output), 0 (to self)"

    def forward(grad_output, self, target, weight, reduction, ignore_index, total_weight):
        shape2 = (1, -1) if self.ndim == 1 else self.shape
        t = target._data.reshape(-1).astype(np.int64)
        coef = _nll_coefficients(self.reshape(shape2).shape, t, weight, ignore_index,
                                 self.dtype).reshape(self.shape)
        g = grad_output
        if reduction == MEAN:
            g = g / total_weight._data
        elif reduction == NONE and self.ndim > 1:
            g = g[:, None]
        # PyTorch fills its zeros at the targets only: +0.0 elsewhere, whatever grad's sign
        return np.where(coef == 0, self.dtype.type(0), (0 - coef) * g).astype(self.dtype)

    def backward(ctx, grad):
        a, b = ctx.needs_input_grad
        return (NllLoss.apply(grad, ctx.target, ctx.weight, ctx.reduction, ctx.ignore_index)
                if a else None, new_tensor(np.zeros_like(grad._data)) if b else None)

    @classmethod
    def sample_inputs(cls, make, shape):
        n, c = (shape + (2, 3))[:2]
        target = new_tensor(make((n, c))._data.argmax(1))
        total = new_tensor(np.asarray(n, np.float32))
        yield make(()), make((n, c)).detach(), target, None, MEAN, as_saved_index(-100), total
        yield make((n,)), make((n, c)).detach(), target, None, NONE, as_saved_index(-100), total


_NLL_LOOP_MAX = 256      # batch sizes up to this add up in PyTorch's order (a Python loop)


def _nll_cascade(terms, weights, keep, ignored: int) -> tuple:
    """(loss sum, total weight) as PyTorch's nll_loss adds them: each kept row's term into a
    level-0 partial sum, which is carried up a level at every 16th kept row index (and at
    row 0, to the top level); the levels are added last. (0-d float arrays.)"""
    dt = terms.dtype.type
    total = dt(terms.shape[0] - ignored) if weights is None else None
    if terms.shape[0] <= 16:    # one carry, at row 0: (rows 1.. added in turn) + row 0
        return (_first_last(terms, keep),
                np.asarray(total if total is not None else _first_last(weights, keep)))
    if terms.shape[0] <= 256 and not ignored:      # runs of 16 rows, then their sums
        return (_blocks_of_16(terms),
                np.asarray(total if total is not None else _blocks_of_16(weights)))
    if weights is None:
        weights = np.zeros_like(terms)
    loss, wsum = [dt(0)] * 8, [dt(0)] * 8
    for b in np.flatnonzero(keep).tolist():
        loss[0] = dt(loss[0] + terms[b])
        wsum[0] = dt(wsum[0] + weights[b])
        for j in range(7):
            if b & (15 << 4 * j):
                break
            loss[j + 1], wsum[j + 1] = dt(loss[j + 1] + loss[j]), dt(wsum[j + 1] + wsum[j])
            loss[j], wsum[j] = dt(0), dt(0)
    out, tw = dt(0), dt(0)
    for j in range(8):
        out, tw = dt(out + loss[j]), dt(tw + wsum[j])
    return np.asarray(out), np.asarray(tw if total is None else total)


def _blocks_of_16(values: np.ndarray) -> np.ndarray:
    """_nll_cascade with every row kept and at most 256 rows: rows 1-16, 17-32, ... each
    added in turn and carried into level 1 in turn; the last partial run, then level 1, then
    row 0 added last."""
    dt = values.dtype.type
    n = values.shape[0]
    full = (n - 1) // 16
    runs = np.cumsum(values[1:1 + 16 * full].reshape(full, 16), axis=1)[:, -1]
    tail = values[1 + 16 * full:]
    level0 = np.cumsum(tail)[-1] if tail.size else dt(0)
    level1 = np.cumsum(runs)[-1] if full else dt(0)
    return np.asarray(dt(dt(dt(level0 + dt(0)) + level1) + values[0]))


def _first_last(values: np.ndarray, keep: np.ndarray) -> np.ndarray:
    """(0 + sum of the kept values after the first, in turn) + the first if kept."""
    dt = values.dtype.type
    rest = values[1:][keep[1:]]
    partial = np.cumsum(rest)[-1] if rest.size else dt(0)
    return np.asarray(dt(dt(partial + dt(0)) + (values[0] if keep[0] else dt(0))))


def as_saved_index(ignore_index: int) -> int:
    """PyTorch's node keeps ignore_index as an unsigned 64-bit number (-100 reads back as
    18446744073709551516); the op takes it in that form so `_saved_ignore_index` agrees."""
    return ignore_index % 2 ** 64


def _signed(index: int) -> int:
    return index - 2 ** 64 if index >= 2 ** 63 else index


def _nll_coefficients(shape, target, weight, ignore_index, dtype) -> np.ndarray:
    """An (N, C) array holding weight[target[n]] at (n, target[n]) and 0 elsewhere."""
    n, c = shape
    ignore_index = _signed(ignore_index)
    keep = target != ignore_index
    coef = np.zeros((n, c), dtype=dtype)
    rows = np.arange(n)[keep]
    cls = target[keep]
    coef[rows, cls] = 1 if weight is None else weight._data[cls]
    return coef


__all__ = ["MseLoss", "SmoothL1Loss", "HuberLoss", "BinaryCrossEntropyWithLogits",
           "BinaryCrossEntropy", "NllLoss", "NllLossBackward", "REDUCTIONS", "as_saved_index"]
