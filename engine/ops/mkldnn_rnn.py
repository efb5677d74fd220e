"""One LSTM layer in one direction as one node, `MkldnnRnnLayerBackward0`: how PyTorch's CPU
build records a float32 `nn.LSTM` (it runs the whole layer in a oneDNN kernel).

Its forward runs the LSTM cell of `engine/nn/functional_rnn.py` over the sequence without
recording; its backward runs it again with recording and differentiates that, as PyTorch's
`mkldnn_rnn_layer_backward` reruns the kernel. Like PyTorch's, the node has no derivative
of its own (`create_graph=True` gives no second-order graph through it).
"""
from __future__ import annotations

from ..grad_mode import enable_grad, no_grad
from ..tensor import Tensor, new_tensor
from .._dual import tangents as _tangents
from ._fused import inside_kernel, report
from ._op import Op
from ._tangents import has_tangent
from .join import _MultiNode
from ..autograd.walk import grad as _grad
from ..grad_mode import state
from ..nn import functional as F
from ..nn.functional_rnn import _one_direction
from .join import cat, stack


def _run(input, weights, hx, cx, reverse):
    params = [w for w in weights if w is not None]
    return _one_direction("LSTM", input, (hx, cx), params, reverse)


class MkldnnRnnLayer(Op):
    """output, h_n, c_n = one LSTM layer over input (seq, batch, features) from (hx_, cx_)"""
    grad_fn_name, name, n_inputs = "MkldnnRnnLayerBackward0", "mkldnn_rnn_layer", 7
    saves = ("cx_", "hx_", "input", "reverse", "weight0", "weight1", "weight2", "weight3")
    rule = "the layer run again step by step, and differentiated"
    node_base = _MultiNode
    derivative_orders = 1

    @classmethod
    def apply(cls, input, weight0, weight1, weight2, weight3, hx_, cx_, reverse):
        inputs = (input, weight0, weight1, weight2, weight3, hx_, cx_)
        if _tangents and has_tangent(inputs):
            # forward mode: the cell's own ops carry the tangents step by step
            out, (h, c) = _run(input, inputs[1:5], hx_, cx_, reverse)
            return out, h, c
        with inside_kernel(), no_grad():
            out, (h, c) = _run(input, inputs[1:5], hx_, cx_, reverse)
        outs = (new_tensor(out._data), new_tensor(h._data), new_tensor(c._data))
        node = None
        if state.enabled and any(t is not None and t._rg for t in inputs):
            node = cls._make_node(inputs, outs[0], inputs + (reverse,), None)
            node._n_out = len(outs)
            for i, o in enumerate(outs):
                o._rg, o.grad_fn, o._out_nr = True, node, i
        report(cls.name, inputs, outs, node)
        return outs

    forward = staticmethod(lambda input, weight0, weight1, weight2, weight3, hx_, cx_,
                           reverse: None)

    def backward(ctx, grads):
        saved = (ctx.input, ctx.weight0, ctx.weight1, ctx.weight2, ctx.weight3, ctx.hx_,
                 ctx.cx_)
        leaves = [None if t is None else t.detach().requires_grad_(need)
                  for t, need in zip(saved, ctx.needs_input_grad)]
        wanted = [t for t in leaves if t is not None and t.requires_grad]
        with inside_kernel():
            with enable_grad():
                out, (h, c) = _run(leaves[0], leaves[1:5], leaves[5], leaves[6], ctx.reverse)
            pairs = [(y, g) for y, g in zip((out, h, c), grads) if g is not None]
            found = iter(_grad([y for y, _ in pairs], wanted, [g for _, g in pairs],
                               allow_unused=True))
        return tuple(next(found) if t is not None and t.requires_grad else None
                     for t in leaves)

    @classmethod
    def sample_inputs(cls, make, shape):
        hidden = 2
        yield (make((2, 1, 3)), make((4 * hidden, 3)), make((4 * hidden, hidden)),
               make((4 * hidden,)), make((4 * hidden,)), make((1, hidden)), make((1, hidden)),
               False)


def mkldnn_lstm(x: Tensor, hx, weights: list, num_layers: int, dropout: float, train: bool,
                bidirectional: bool, batch_first: bool) -> tuple:
    """PyTorch's float32 CPU LSTM: one MkldnnRnnLayer node per layer and direction."""
    if batch_first:
        x = x.transpose(0, 1)
    x = x.contiguous()
    dirs = 2 if bidirectional else 1
    hy, cy = [], []
    for layer in range(num_layers):
        outs = []
        for d in range(dirs):
            k = layer * dirs + d
            w = list(weights[k]) + [None] * (4 - len(weights[k]))
            out, h, c = MkldnnRnnLayer.apply(x, *w, hx[0][k], hx[1][k], d == 1)
            outs.append(out)
            hy.append(h)
            cy.append(c)
        x = outs[0] if dirs == 1 else cat(outs, -1)
        if dropout != 0 and train and layer < num_layers - 1:
            x = F.dropout(x, dropout, True)
    if batch_first:
        x = x.transpose(0, 1)
    return x, (stack(hy, 0), stack(cy, 0))


__all__ = ["MkldnnRnnLayer", "mkldnn_lstm"]
