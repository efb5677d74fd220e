"""The derivative kernels of the gated and learnable activations, GLU and PReLU, as ops of
their own: under `create_graph=True` their gradients print GluBackwardBackward0 and
PreluKernelBackwardBackward0, as in PyTorch (grad_ops.py says why these are ops).
"""
from __future__ import annotations

import numpy as np

from .. import _events
from ..grad_mode import state as _grad_state
from ..tensor import new_tensor
from ._broadcast import sum_to
from ._op import Op
from .._dual import tangents as _tangents
from ._tangents import has_tangent, push_many
from .join import _MultiNode


class GluBackward(Op):
    """out = cat(sigmoid(b) * grad_output, (1 - sigmoid(b)) * sigmoid(b) * a * grad_output)
    along dim, where a, b are self's halves"""
    grad_fn_name, name, n_inputs = "GluBackwardBackward0", "glu_backward", 2
    saves = ("dim", "grad_output", "self")
    rule = "PyTorch's glu_double_backward_grad_output and glu_double_backward"

    def forward(grad_output, self, dim):
        from .elementwise import _sigmoid
        from .nn_gated import signed_dim
        dim = signed_dim(dim)
        a, b = np.split(self, 2, axis=dim)
        sig = _sigmoid(b)       # PyTorch's sigmoid kernel, then its fused glu_backward one
        one = self.dtype.type(1)
        return np.concatenate([sig * grad_output, (one - sig) * sig * a * grad_output], axis=dim)

    def backward(ctx, grad):
        from .nn_gated import signed_dim
        a_, b_ = ctx.needs_input_grad
        x, go, saved_dim = ctx.self, ctx.grad_output, ctx.dim
        dim = signed_dim(saved_dim) % x._data.ndim
        n = x._data.shape[dim] // 2
        first, second = x.narrow(dim, 0, n), x.narrow(dim, n, n)
        gg_first, gg_second = grad.narrow(dim, 0, n), grad.narrow(dim, n, n)
        g_go = gx = None
        if a_:      # glu_double_backward_grad_output
            from ..factories import ones
            sizes = list(x._data.shape)
            sizes[dim] = n
            tmp = grad * GluBackward.apply(ones(*sizes, dtype=x.dtype), x, saved_dim)
            g_go = tmp.narrow(dim, 0, n) + tmp.narrow(dim, n, n)
        if b_:      # glu_double_backward
            sig = second.sigmoid()
            one_sub = 1 - sig
            sig_one_sub = sig * one_sub
            gi_first = gg_second * go * sig_one_sub
            second_order = sig_one_sub * one_sub - sig * sig_one_sub
            gi_second = (gg_second * first * go * second_order
                         + gg_first * go * sig_one_sub)
            from .join import cat
            gx = cat([gi_first, gi_second], dim)
        return g_go, gx

    @classmethod
    def sample_inputs(cls, make, shape):
        full = tuple(shape[:-1]) + (2 * shape[-1],) if shape else (2,)
        yield make(tuple(shape) if shape else (1,)), make(full), 2 ** 64 - 1


class PreluKernelBackward(Op):
    """outs = (grad_output where self > 0 else weight * grad_output,
    0 where self > 0 else self * grad_output)"""
    grad_fn_name, name, n_inputs = "PreluKernelBackwardBackward0", "_prelu_kernel_backward", 3
    saves = ("grad_output", "self", "weight")
    rule = "PyTorch's _prelu_kernel_backward derivatives (where self >= 0 ...)"

    node_base = _MultiNode      # one node for both outputs: backward gets both grads

    @classmethod
    def apply(cls, grad_output, self, weight):
        inputs = (grad_output, self, weight)
        outs = tuple(new_tensor(a) for a in cls.forward(*(t._data for t in inputs)))
        node = None
        if _grad_state.enabled and any(t._rg for t in inputs):
            node = cls._make_node(inputs, outs[0], inputs, None)
            node._n_out = 2
            for i, o in enumerate(outs):
                o._rg, o.grad_fn, o._out_nr = True, node, i
        if _tangents and has_tangent(inputs):       # forward mode (_tangents.py)
            push_many(cls, inputs, inputs, outs)
        if _events.listener is not None and not _grad_state.quiet:
            for o in outs:
                _events.listener.on_op(cls.name, inputs, o, node)
        return outs

    def forward(grad_output, self, weight):
        pos, dt = self > 0, self.dtype.type
        grad_input = np.where(pos, grad_output, weight * grad_output).astype(self.dtype)
        grad_weight = np.where(pos, dt(0), self * grad_output).astype(self.dtype)
        return grad_input, grad_weight

    def backward(ctx, grads):
        from .elementwise import where
        a, b, c = ctx.needs_input_grad
        g0, g1 = grads
        go, x, w = ctx.grad_output, ctx.self, ctx.weight
        nonneg = x >= 0
        zero = new_tensor(np.zeros((), x._data.dtype))
        g_go = gx = gw = None
        if a:
            if g0 is None:
                g_go = where(nonneg, zero, g1 * x)
            else:
                other = g0 * w if g1 is None else g0 * w + g1 * x
                g_go = where(nonneg, g0, other)
            g_go = sum_to(g_go, go._data.shape)
        if b:
            gx = (where(nonneg, zero, go * g1) if g1 is not None
                  else new_tensor(np.zeros_like(x._data)))
            gx = sum_to(gx, x._data.shape)
        if c:
            gw = (where(nonneg, zero, go * g0) if g0 is not None
                  else new_tensor(np.zeros_like(x._data)))
            gw = sum_to(gw, w._data.shape)
        return g_go, gx, gw

    @classmethod
    def sample_inputs(cls, make, shape):
        x = make(shape)
        x._data[np.abs(x._data) < 0.1] = 0.5      # away from the kink at 0
        yield make(shape), x, make(shape)
