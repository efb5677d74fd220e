"""Convolution: what `F.conv1d` / `F.conv2d` (and the Conv layers) record.

PyTorch counterpart: `torch.convolution` (`ConvolutionBackward0`, saving stride, padding,
dilation, transposed, output_padding, groups, bias_sym_sizes_opt, input and weight). The
forward gathers every kernel offset's strided window of the zero-padded input ("im2col") and
contracts it with the weight per group; the backward runs the same windows the other way.
The backward is numpy, so a second derivative is refused loudly rather than silently wrong.
"""
from __future__ import annotations

import numpy as np

from ..grad_mode import state as _grad_state
from ..tensor import Tensor, new_tensor
from ._op import Op

_NO_DOUBLE_BACKWARD = ("gradstep does not differentiate convolution twice: "
                       "ConvolutionBackward0 cannot be used with create_graph=True")


def _windows(kernel: tuple, out: tuple, stride: tuple, dilation: tuple):
    """For each kernel offset (row-major), the slices of the padded input it reads."""
    for offset in np.ndindex(*kernel):
        yield (Ellipsis,) + tuple(slice(k * d, k * d + s * (o - 1) + 1, s)
                                  for k, d, s, o in zip(offset, dilation, stride, out))


def out_size(size: tuple, kernel: tuple, stride, padding, dilation) -> tuple:
    """Each spatial output length, as PyTorch computes it."""
    return tuple((n + 2 * p - d * (k - 1) - 1) // s + 1
                 for n, k, s, p, d in zip(size, kernel, stride, padding, dilation))


def _columns(x: np.ndarray, kernel: tuple, stride, padding, dilation, groups) -> np.ndarray:
    """(N, groups, C/groups, prod(kernel), *out): the input under each kernel offset."""
    xp = np.pad(x, [(0, 0), (0, 0)] + [(p, p) for p in padding])
    out = out_size(x.shape[2:], kernel, stride, padding, dilation)
    cols = np.stack([xp[w] for w in _windows(kernel, out, stride, dilation)], axis=2)
    n, c = x.shape[:2]
    return cols.reshape((n, groups, c // groups, -1) + out)


class Convolution(Op):
    """out[n, o] = bias[o] + sum over c, k of weight[o, c, k] * input[n, c, stride*i + dil*k]"""
    grad_fn_name, name, n_inputs = "ConvolutionBackward0", "convolution", 3
    saves = ("bias_sym_sizes_opt", "dilation", "groups", "input", "output_padding", "padding",
             "stride", "transposed", "weight")
    rule = "input: grad through the windows by weight; weight: grad by the windows; bias: sum"
    # PyTorch differentiates this twice; gradstep's numpy backward only once (it raises)
    derivative_orders = 1

    def forward(input, weight, bias, stride, padding, dilation, transposed, output_padding,
                groups, bias_sym_sizes_opt):
        cols = _columns(input, weight.shape[2:], stride, padding, dilation, groups)
        w = weight.reshape((groups, weight.shape[0] // groups, weight.shape[1], -1))
        out = np.einsum("ngck...,gock->ngo...", cols, w, optimize=True)
        out = out.reshape((input.shape[0], weight.shape[0]) + out.shape[3:])
        if bias is not None:
            out = out + bias.reshape((-1,) + (1,) * (input.ndim - 2))
        return out.astype(input.dtype, copy=False)

    def backward(ctx, grad):
        if _grad_state.enabled:
            raise NotImplementedError(_NO_DOUBLE_BACKWARD)
        x, w, g = ctx.input._data, ctx.weight._data, grad._data
        groups, stride, padding, dilation = ctx.groups, ctx.stride, ctx.padding, ctx.dilation
        kernel = w.shape[2:]
        gg = g.reshape((g.shape[0], groups, -1) + g.shape[2:])
        wg = w.reshape((groups, w.shape[0] // groups, w.shape[1], -1))
        need = ctx.needs_input_grad
        gx = gw = gb = None
        if need[0]:
            gcols = np.einsum("ngo...,gock->ngck...", gg, wg, optimize=True)
            gcols = gcols.reshape((x.shape[0], x.shape[1], -1) + g.shape[2:])
            gxp = np.zeros(x.shape[:2] + tuple(n + 2 * p for n, p in zip(x.shape[2:], padding)),
                           dtype=g.dtype)
            for i, win in enumerate(_windows(kernel, g.shape[2:], stride, dilation)):
                gxp[win] += gcols[:, :, i]
            crop = (Ellipsis,) + tuple(slice(p, p + n) for p, n in zip(padding, x.shape[2:]))
            gx = new_tensor(gxp[crop].astype(x.dtype, copy=False))
        if need[1]:
            cols = _columns(x, kernel, stride, padding, dilation, groups)
            gw = np.einsum("ngo...,ngck...->gock", gg, cols, optimize=True)
            gw = new_tensor(gw.reshape(w.shape).astype(w.dtype, copy=False))
        if len(need) > 2 and need[2]:
            gb = new_tensor(g.sum(axis=(0,) + tuple(range(2, g.ndim))).astype(g.dtype))
        return gx, gw, gb

    def jvp(ctx, input_t, weight_t, bias_t=None):
        # conv(input_t, weight, bias_t) + conv(input, weight_t): bilinear in input and weight
        def conv(x, w, b):
            return Convolution.apply(x, w, b, ctx.stride, ctx.padding, ctx.dilation, ctx.groups)
        out = None
        if input_t is not None:
            out = conv(input_t, ctx.weight, bias_t)
        elif bias_t is not None:
            out = bias_t.reshape((-1,) + (1,) * (ctx.input.ndim - 2))
        if weight_t is not None:
            term = conv(ctx.input, weight_t, None)
            out = term if out is None else out + term
        return out

    @classmethod
    def apply(cls, input: Tensor, weight: Tensor, bias, stride: tuple, padding: tuple,
              dilation: tuple, groups: int) -> Tensor:
        """Convolve a batched input (N, C, *spatial) with weight (O, C/groups, *kernel)."""
        zeros = (0,) * len(stride)
        sizes = tuple(bias.shape) if bias is not None else (0,)
        args = (input, weight, bias, stride, padding, dilation, False, zeros, groups, sizes)
        out = cls.forward(input._data, weight._data, None if bias is None else bias._data,
                          *args[3:])
        if bias is not None:
            return cls._record((input, weight, bias), out, args)
        result = cls._record((input, weight), out, args)
        if result.grad_fn is not None:      # PyTorch keeps an empty edge for the bias
            result.grad_fn.next_functions += ((None, 0),)
        return result

    @classmethod
    def sample_inputs(cls, make, shape):
        yield make((2, 2, 5, 4)), make((4, 1, 3, 2)), make((4,)), (2, 1), (1, 0), (1, 2), 2
        yield make((1, 3, 6)), make((2, 3, 2)), None, (1,), (1,), (2,), 1
