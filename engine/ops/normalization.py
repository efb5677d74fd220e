"""Layer and batch normalisation: (x - mean) / sqrt(var + eps), then weight and bias.

PyTorch counterparts: `torch.native_layer_norm` (`NativeLayerNormBackward0`, what
`F.layer_norm` records) and `torch.native_batch_norm` (`NativeBatchNormBackward0`, what
`F.batch_norm` records). Both save the mean and 1/std they computed as `result1` and
`result2`. Argument checks live in `engine/nn/functional_norm.py`. A missing weight or bias
arrives as a placeholder that requires no grad (ones, zeros), which leaves the values alone.

Forward values follow PyTorch's CPU kernels to the bit for float32 (the row moments of layer
norm: Welford over 8-lane vectors, a scalar tail, then the lanes merged; batch norm's channel
sums in order in double for contiguous inputs of 3 or more dims; the outputs fused
multiply-adds); the backwards are PyTorch's formulas, written in Tensor ops so that
create_graph differentiates them again, and for such float32 batch norms without
create_graph also PyTorch's kernel in numpy (NOTE [batch norm backward order]).
"""
from __future__ import annotations

import numpy as np

from ..tensor import Tensor, counter, new_tensor
from ._broadcast import records_nothing
from ._exact import F32, fma32
from ._op import Op

_LANES = {np.dtype(np.float32): 8, np.dtype(np.float64): 4}


def _fma(a, b, c):
    if a.dtype == np.float32:
        return fma32(a, b, c)
    return a * b + c


def _merge(count_add, m1_add, m2_add, acc):
    """Fold moments (count, mean, sum of squared deviations) into acc, as ATen's AddMoments
    (its multiply-adds fused, as the compiled kernel fuses them)."""
    t = m1_add.dtype.type
    n = acc[0] + count_add
    c = t(0) if n == 0 else t(count_add) / t(n)
    delta = m1_add - acc[1]
    acc[1] = _fma(np.full_like(delta, c), delta, acc[1])
    acc[2] = acc[2] + _fma(delta * delta * c, np.full_like(delta, t(acc[0])), m2_add)
    acc[0] = n


def row_moments(x: np.ndarray) -> tuple:
    """(mean, biased variance) of each row of 2-D x in PyTorch's order of roundings: rows cut
    into vectors of L lanes, chunks of 16 vectors folded by Welford and merged pairwise, the
    leftover elements by a scalar Welford, then the L lanes merged into it one by one."""
    rows, n_el = x.shape
    t = x.dtype.type
    lanes = _LANES.get(x.dtype, 8)
    n_vec = n_el // lanes
    n_chunks = -(-n_vec // 16)
    depth = max(int(n_chunks - 1).bit_length(), 1)      # ceil(log2(chunks)), at least 1
    stack = [[0, np.zeros((rows, lanes), x.dtype), np.zeros((rows, lanes), x.dtype)]
             for _ in range(depth)]
    for i in range(n_chunks):
        m1 = np.zeros((rows, lanes), x.dtype)
        m2 = np.zeros((rows, lanes), x.dtype)
        count = min(16, n_vec - i * 16)
        for j in range(count):
            xv = x[:, (i * 16 + j) * lanes:(i * 16 + j + 1) * lanes]
            d = xv - m1
            m1 = _fma(d, np.full_like(d, t(1) / t(j + 1)), m1)
            m2 = _fma(d, xv - m1, m2)
        _merge(count, m1, m2, stack[0])
        mask, j = i + 1, 1
        while j < depth and mask & 1 == 0:     # carry a full level up, as a binary counter
            _merge(*stack[j - 1], stack[j])
            stack[j - 1] = [0, np.zeros_like(m1), np.zeros_like(m1)]
            mask >>= 1
            j += 1
    for j in range(1, depth):
        _merge(*stack[j], stack[0])
    acc = [0, np.zeros(rows, x.dtype), np.zeros(rows, x.dtype)]
    for k in range(n_vec * lanes, n_el):
        d = x[:, k] - acc[1]
        acc[0] += 1
        acc[1] = acc[1] + d / t(acc[0])
        acc[2] = acc[2] + d * (x[:, k] - acc[1])
    if n_vec:
        for lane in range(lanes):
            _merge(n_vec, stack[0][1][:, lane], stack[0][2][:, lane], acc)
    return acc[1], acc[2] / t(n_el)


class NativeLayerNorm(Op):
    """out = (input - mean) * rstd * weight + bias over the trailing normalized_shape dims"""
    grad_fn_name, name, n_inputs = "NativeLayerNormBackward0", "native_layer_norm", 3
    # eps is no PyTorch save (its backward reuses rstd); kept privately for the Tensor-op
    # backward, which recomputes rstd so that a second derivative sees how it moves
    saves = ("bias", "input", "normalized_shape", "result1", "result2", "weight", "_eps")
    forward_extras = ("result1", "result2")
    rule = "rstd * (g - mean(g) - xhat * mean(g * xhat)), g = grad * weight; sums for weight, bias"
    float_only = True

    def forward(input, weight, bias, normalized_shape, eps=1e-5):
        k = input.ndim - len(normalized_shape)
        lead = input.shape[:k]
        x2 = np.ascontiguousarray(input).reshape(int(np.prod(lead)), -1)
        mean, var = row_moments(x2)
        t = input.dtype.type
        rstd = t(1) / np.sqrt(var + t(eps))
        xhat = (x2 - mean[:, None]) * rstd[:, None]
        w, b = weight.reshape(-1), bias.reshape(-1)
        out = _fma(xhat, np.broadcast_to(w, xhat.shape), np.broadcast_to(b, xhat.shape))
        stat_shape = lead + (1,) * len(normalized_shape)
        return out.reshape(input.shape), (new_tensor(mean.reshape(stat_shape)),
                                          new_tensor(rstd.reshape(stat_shape)))

    def backward(ctx, grad):        # PyTorch's layer_norm_backward formulas
        a, b, c = ctx.needs_input_grad
        x, w = ctx.input, ctx.weight
        k = x.ndim - len(ctx.normalized_shape)
        dims, lead = tuple(range(k, x.ndim)), tuple(range(k))
        n = int(np.prod(ctx.normalized_shape))
        mean, rstd = _layer_stats(ctx, x, dims)
        gx = gw = gb = None
        if a:
            g = grad * w
            ds = (g * x).sum(dims, keepdim=True)
            db = g.sum(dims, keepdim=True)
            coef = (db * mean - ds) * rstd * rstd * rstd * (1.0 / n)
            shift = -coef * mean - db * rstd * (1.0 / n)
            gx = g * rstd + coef * x + shift
        if b:
            gw = grad * (x - mean) * rstd
            gw = gw.sum(lead) if lead else gw
        if c:
            gb = grad.sum(lead) if lead else grad
        return gx, gw, gb

    @classmethod
    def sample_inputs(cls, make, shape):
        n = (shape + (3,))[-1] if shape else 3
        yield make((2, n)), make((n,)), make((n,)), (n,), 1e-5
        yield make((2, 2, n)), make((2, n)), make((2, n)), (2, n), 1e-3


class NativeBatchNorm(Op):
    """out = (input - mean) * invstd * weight + bias per channel (dim 1), with the batch's
    statistics while training (updating the running ones) or the running ones in eval"""
    grad_fn_name, name, n_inputs = "NativeBatchNormBackward0", "native_batch_norm", 3
    saves = ("eps", "input", "result1", "result2", "running_mean", "running_var", "training",
             "weight")
    forward_extras = ("result1", "result2")
    rule = "invstd * w * (grad - mean(grad) - xhat * mean(grad * xhat)); sums for weight, bias"
    float_only = True

    def forward(input, weight, bias, running_mean=None, running_var=None, training=True,
                momentum=0.1, eps=1e-5):
        axes = (0,) + tuple(range(2, input.ndim))
        shape = [1] * input.ndim
        shape[1] = -1
        t = input.dtype.type
        if training:
            n = input.size // input.shape[1]
            if input.ndim > 2 and input.flags.c_contiguous:
                mean, var_sum = _plane_stats(input)
            else:   # (N, C) takes PyTorch's channels-last kernel, whose order is not followed
                mean = input.sum(axes, dtype=input.dtype) / t(n)
                var_sum = ((input - mean.reshape(shape)) ** 2).sum(axes, dtype=input.dtype)
            # PyTorch's InvStd in double of the variance divided in the input's type
            invstd = (1.0 / np.sqrt((var_sum / t(n)).astype(np.float64) + eps)).astype(t)
            _update_running(running_mean, running_var, mean, var_sum, n, momentum)
            saved = (mean, invstd)
            use_mean = mean
        else:
            use_mean = running_mean._data
            invstd = t(1) / np.sqrt(running_var._data + t(eps))    # in the input's type
            saved = (np.zeros(0, input.dtype), np.zeros(0, input.dtype))
        # per channel out = x * alpha + beta, both steps fused multiply-adds as PyTorch's
        # vectorised kernels compile
        alpha = invstd * weight
        beta = _fma(-use_mean, alpha, bias)
        out = _fma(input, alpha.reshape(shape), np.broadcast_to(beta.reshape(shape), input.shape))
        return out.astype(input.dtype, copy=False), tuple(new_tensor(s) for s in saved)

    def backward(ctx, grad):        # PyTorch's batch_norm_backward formulas
        a, b, c = ctx.needs_input_grad
        x, w = ctx.input, ctx.weight
        if (x.ndim > 2 and x._data.dtype == np.float32 and grad._data.dtype == np.float32
                and x._data.flags.c_contiguous and records_nothing()):   # PyTorch's kernel
            gx, gw, gb = _plane_backward(ctx, grad._data)
            return (new_tensor(gx) if a else None, new_tensor(gw) if b else None,
                    new_tensor(gb) if c else None)
        axes = (0,) + tuple(range(2, x.ndim))
        shape = [1] * x.ndim
        shape[1] = -1
        mean, invstd = _batch_stats(ctx, x, axes, shape)
        xc = x - mean
        dot = (grad * xc).sum(axes, keepdim=True)
        gx = gw = gb = None
        if a:
            scale = invstd * w.view(shape)
            if ctx.training:
                n = x.numel() // x.shape[1]
                proj = dot * invstd * invstd * (1.0 / n)
                gx = (grad - grad.sum(axes, keepdim=True) * (1.0 / n) - xc * proj) * scale
            else:
                gx = grad * scale
        if b:
            gw = (dot * invstd).view(-1)
        if c:
            gb = grad.sum(axes)
        return gx, gw, gb

    @classmethod
    def sample_inputs(cls, make, shape):
        c = (shape + (3,))[-1] if shape else 3
        yield make((4, c)), make((c,)), make((c,)), None, None, True, 0.1, 1e-5
        rm = new_tensor(np.linspace(-0.5, 0.5, c))
        rv = new_tensor(np.linspace(0.5, 1.5, c))
        yield make((3, c, 2)), make((c,)), make((c,)), rm, rv, False, 0.1, 1e-5


def _layer_stats(ctx, x: Tensor, dims: tuple) -> tuple:
    """mean and rstd: the saved ones for a plain backward (PyTorch's bits), recomputed in
    Tensor ops under create_graph (a second derivative must see how they move with x)."""
    if records_nothing():
        return ctx.result1, ctx.result2
    mean = x.mean(dims, keepdim=True)
    xc = x - mean
    return mean, ((xc * xc).mean(dims, keepdim=True) + ctx._eps).rsqrt()


def _batch_stats(ctx, x: Tensor, axes: tuple, shape: list) -> tuple:
    """mean and invstd per channel, shaped to broadcast over x (see _layer_stats)."""
    if not ctx.training:
        return (ctx.running_mean.view(shape),
                (ctx.running_var.view(shape) + ctx.eps).rsqrt())
    if records_nothing():
        return ctx.result1.view(shape), ctx.result2.view(shape)
    mean = x.mean(axes, keepdim=True)
    xc = x - mean
    return mean, ((xc * xc).mean(axes, keepdim=True) + ctx.eps).rsqrt()


def _plane_stats(x: np.ndarray) -> tuple:
    """Per-channel mean and sum of squared deviations of a contiguous (N, C, ...) input as
    PyTorch's CPU kernel computes them: each channel's values in memory order summed in
    double (cumsum adds strictly in order), the mean rounded to the input's type, the squared
    deviations in the input's type summed in double again."""
    c = x.shape[1]
    flat = x.reshape(x.shape[0], c, -1).transpose(1, 0, 2).reshape(c, -1)
    mean = (np.cumsum(flat, axis=1, dtype=np.float64)[:, -1] / flat.shape[1]).astype(x.dtype)
    dev = flat - mean[:, None]
    var_sum = np.cumsum(dev * dev, axis=1, dtype=np.float64)[:, -1].astype(x.dtype)
    return mean, var_sum


# NOTE [batch norm backward order]
# PyTorch's contiguous CPU backward works per channel on each sample's plane of H*W (or L)
# values with 8-lane float vectors: sum(grad) and dot((x - mean), grad) per plane (lanes
# filled in order, the first vector of products as is, later full vectors added unfused,
# a short last vector fused into the lanes it covers; the lanes then added in halves; a
# plane shorter than a vector added lane by lane), the planes' results added in double.
# Then k = dot * invstd * invstd / n and grad_input = ((grad - mean(grad)) - (x - mean) * k)
# * invstd * weight, the subtraction of the product fused. Measured against PyTorch 2.13.
_BN_LANES = 8


def _lane_sum(v: np.ndarray, products: np.ndarray | None = None) -> np.ndarray:
    """One plane's reduction as NOTE [batch norm backward order] describes: of `v` along the
    last axis, or (products given as (a, b)) of a * b."""
    prod = v if products is None else products[0] * products[1]
    size = prod.shape[-1]
    if size < _BN_LANES:
        acc = prod[..., 0]
        for i in range(1, size):
            acc = acc + prod[..., i]
        return acc
    acc = prod[..., :_BN_LANES].copy()
    d = _BN_LANES
    while d < size - size % _BN_LANES:
        acc = acc + prod[..., d:d + _BN_LANES]
        d += _BN_LANES
    if d < size:
        w = size - d
        if products is None:
            acc[..., :w] = acc[..., :w] + prod[..., d:]
        else:
            acc[..., :w] = fma32(products[0][..., d:], products[1][..., d:], acc[..., :w])
    while acc.shape[-1] > 1:
        h = acc.shape[-1] // 2
        acc = acc[..., :h] + acc[..., h:]
    return acc[..., 0]


def _plane_backward(ctx, grad: np.ndarray) -> tuple:
    """grad_input, grad_weight and grad_bias of a float32 (N, C, ...) batch norm, in PyTorch's
    order (NOTE [batch norm backward order])."""
    x = ctx.input._data
    n_batch, c = x.shape[:2]
    planes = x.reshape(n_batch, c, -1)
    g = grad.reshape(n_batch, c, -1)
    if ctx.training:
        mean, invstd = ctx.result1._data, ctx.result2._data
    else:
        mean = ctx.running_mean._data
        invstd = (1.0 / np.sqrt(ctx.running_var._data.astype(np.float64) + ctx.eps)).astype(F32)
    xc = planes - mean[:, None]
    sums = np.zeros(c)
    dots = np.zeros(c)
    for k in range(n_batch):
        sums = sums + _lane_sum(g[k]).astype(np.float64)
        dots = dots + _lane_sum(None, (xc[k], g[k])).astype(np.float64)
    w = ctx.weight._data
    if ctx.training:
        n = planes.size // c
        k_ = dots.astype(F32) * invstd * invstd / np.float32(n)
        centred = g - (sums / n).astype(F32)[:, None]
        gx = fma32(-xc, np.broadcast_to(k_[:, None], xc.shape), centred)
        gx = gx * invstd[:, None] * w[:, None]
    else:
        gx = g * invstd[:, None] * w[:, None]
    gw = (dots * invstd.astype(np.float64)).astype(F32)
    return gx.reshape(x.shape), gw, sums.astype(F32)


def _update_running(running_mean, running_var, mean, var_sum, n, momentum) -> None:
    """running = (1 - momentum) * running + momentum * batch (the variance unbiased), in place;
    momentum None gives the cumulative average, which the caller passes as 1 / count."""
    if running_mean is None:
        return
    t = mean.dtype.type
    m = t(momentum)
    rm, rv = running_mean._data, running_var._data
    unbiased = var_sum / t(n - 1) if n > 1 else np.full_like(var_sum, np.inf)
    rm[...] = m * mean + (t(1) - m) * rm
    # PyTorch keeps the unbiased variance in double: momentum * it and the sum are double
    rv[...] = m * unbiased.astype(np.float64) + ((t(1) - m) * rv).astype(np.float64)
    counter(running_mean)[0] += 1
    counter(running_var)[0] += 1


__all__ = ["NativeLayerNorm", "NativeBatchNorm", "row_moments"]
