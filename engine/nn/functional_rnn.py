"""The recurrent cells and the layer loop behind `nn.RNNCell` ... `nn.GRU`, in engine ops.

PyTorch counterparts: `torch.rnn_tanh_cell`, `torch.rnn_relu_cell`, `torch.lstm_cell`,
`torch.gru_cell` and the CPU loop of `torch.rnn_tanh`/`rnn_relu`/`gru`/`lstm`
(aten/src/ATen/native/RNN.cpp). Every step is recorded as the same nodes PyTorch records
(AddmmBackward0, AddBackward0, UnsafeSplitBackward0, SigmoidBackward0, TanhBackward0, ...),
in the same order, so a learner sees one cell call per time step in the graph and the
values round as PyTorch's do. A layer computes the input half of every step's gates at once
(one linear over the whole sequence, then unbind), as PyTorch's CPU loop does.
"""
from __future__ import annotations

from .. import _events
from ..ops import join
from ..ops.shape import TransposeInplace
from ..tensor import Tensor
from . import functional as F


# ---- cells: `igates` is the input's half of the gates, linear(input, w_ih, b_ih) ---------
def _simple_step(igates: Tensor, hx: Tensor, w_hh, b_hh, relu: bool) -> Tensor:
    gates = F.linear(hx, w_hh, b_hh) + igates      # linear_hh(hx).add_(igates)
    return gates.relu() if relu else gates.tanh()


def _lstm_step(igates: Tensor, hx: Tensor, cx: Tensor, w_hh, b_hh) -> tuple:
    gates = F.linear(hx, w_hh, b_hh) + igates
    i, f, g, o = join.unsafe_chunk(gates, 4, 1)
    i, f, g, o = i.sigmoid(), f.sigmoid(), g.tanh(), o.sigmoid()
    cy = f * cx + i * g
    return o * cy.tanh(), cy


def _gru_step(igates: Tensor, hx: Tensor, w_hh, b_hh) -> Tensor:
    ir, iz, in_ = join.unsafe_chunk(igates, 3, 1)
    hr, hz, hn = join.unsafe_chunk(F.linear(hx, w_hh, b_hh), 3, 1)
    reset = (hr + ir).sigmoid()
    update = (hz + iz).sigmoid()
    new = (in_ + hn * reset).tanh()
    return (hx - new) * update + new


def _check_cell(input: Tensor, hx, w_ih: Tensor, w_hh: Tensor, labels=(0,)) -> None:
    if input.shape[1] != w_ih.shape[1]:
        raise RuntimeError(f"input has inconsistent input_size: got {input.shape[1]} expected "
                           f"{w_ih.shape[1]}")
    for h, label in zip(hx, labels):
        if input.shape[0] != h.shape[0]:
            raise RuntimeError(f"Input batch size {input.shape[0]} doesn't match hidden{label} "
                               f"batch size {h.shape[0]}")
        if h.shape[1] != w_hh.shape[1]:
            raise RuntimeError(f"hidden{label} has inconsistent hidden_size: got {h.shape[1]}, "
                               f"expected {w_hh.shape[1]}")


def rnn_tanh_cell(input, hx, w_ih, w_hh, b_ih=None, b_hh=None) -> Tensor:
    """h' = tanh(x W_ih^T + b_ih + h W_hh^T + b_hh) for a batch (`torch.rnn_tanh_cell`)."""
    _check_cell(input, (hx,), w_ih, w_hh)
    return _simple_step(F.linear(input, w_ih, b_ih), hx, w_hh, b_hh, relu=False)


def rnn_relu_cell(input, hx, w_ih, w_hh, b_ih=None, b_hh=None) -> Tensor:
    """h' = relu(x W_ih^T + b_ih + h W_hh^T + b_hh) for a batch (`torch.rnn_relu_cell`)."""
    _check_cell(input, (hx,), w_ih, w_hh)
    return _simple_step(F.linear(input, w_ih, b_ih), hx, w_hh, b_hh, relu=True)


def lstm_cell(input, hx, w_ih, w_hh, b_ih=None, b_hh=None) -> tuple:
    """(h', c') of one LSTM step, gates in PyTorch's order i, f, g, o (`torch.lstm_cell`)."""
    _check_cell(input, hx, w_ih, w_hh, (0, 1))
    return _lstm_step(F.linear(input, w_ih, b_ih), hx[0], hx[1], w_hh, b_hh)


def gru_cell(input, hx, w_ih, w_hh, b_ih=None, b_hh=None) -> Tensor:
    """h' of one GRU step, gates in PyTorch's order r, z, n (`torch.gru_cell`)."""
    _check_cell(input, (hx,), w_ih, w_hh)
    return _gru_step(F.linear(input, w_ih, b_ih), hx, w_hh, b_hh)


# ---- layers ---------------------------------------------------------------------------
def _one_direction(mode: str, x: Tensor, hidden, params: list, reverse: bool,
                   name: str | None = None) -> tuple:
    """Run one layer in one direction over x (seq, batch, features): (outputs, last hidden).
    `hidden` is h, or (h, c) for the LSTM. With a `name` ("l0", "l1_reverse"), each time step
    is announced to the listener (`Listener.on_step_enter`), so that a picture can group the
    ops of one step."""
    w_ih, w_hh = params[0], params[1]
    b_ih, b_hh = (params[2], params[3]) if len(params) == 4 else (None, None)
    steps = F.linear(x, w_ih, b_ih).unbind(0)
    order = range(len(steps) - 1, -1, -1) if reverse else range(len(steps))
    outs = []
    for t in order:
        listener = _events.listener if name is not None else None
        if listener is not None:
            listener.on_step_enter(name, t)
        try:
            hidden = _step(mode, steps[t], hidden, w_hh, b_hh)
        finally:
            if listener is not None:
                listener.on_step_exit()
        outs.append(hidden[0] if mode == "LSTM" else hidden)
    if reverse:
        outs.reverse()
    if not outs:
        raise RuntimeError("Expected sequence length to be larger than 0 in RNN")
    return join.stack(outs, 0), hidden


def _step_name(layer: int, direction: int) -> str:
    """A layer and direction as PyTorch's parameter names say them: `l0`, `l1_reverse`."""
    return f"l{layer}" + ("_reverse" if direction else "")


def run_layers(mode: str, x: Tensor, hx, weights: list, num_layers: int, dropout: float,
               train: bool, bidirectional: bool, batch_first: bool) -> tuple:
    """(output, h_n) or (output, (h_n, c_n)): the stacked layers over a (seq, batch, feature)
    input, or (batch, seq, feature) with batch_first. `weights` holds each layer's and
    direction's parameters in PyTorch's order; `hx` is (layers * directions, batch, hidden),
    a pair of them for the LSTM."""
    if batch_first:
        x = x.transpose(0, 1)
    dirs = 2 if bidirectional else 1
    if mode == "LSTM":
        h_layers, c_layers = hx[0].unbind(0), hx[1].unbind(0)
        starts = list(zip(h_layers, c_layers))
    else:
        starts = list(hx.unbind(0))
    finals = []
    for layer in range(num_layers):
        outs = []
        for d in range(dirs):
            k = layer * dirs + d
            out, last = _one_direction(mode, x, starts[k], weights[k], reverse=d == 1,
                                       name=_step_name(layer, d))
            outs.append(out)
            finals.append(last)
        x = outs[0] if dirs == 1 else join.cat(outs, outs[0].ndim - 1)
        if dropout != 0 and train and layer < num_layers - 1:
            x = F.dropout(x, dropout, True)
    if batch_first:
        x = TransposeInplace.apply(x, 0, 1)
    if mode == "LSTM":
        return x, (join.stack([h for h, _ in finals], 0), join.stack([c for _, c in finals], 0))
    return x, join.stack(finals, 0)


def _step(mode: str, igates: Tensor, hidden, w_hh, b_hh):
    if mode == "LSTM":
        return _lstm_step(igates, hidden[0], hidden[1], w_hh, b_hh)
    if mode == "GRU":
        return _gru_step(igates, hidden, w_hh, b_hh)
    return _simple_step(igates, hidden, w_hh, b_hh, relu=mode == "RNN_RELU")


def _slice(hidden, start: int, end: int):
    if isinstance(hidden, tuple):
        return tuple(h.narrow(0, start, end - start) for h in hidden)
    return hidden.narrow(0, start, end - start)


def _concat(parts: list):
    if isinstance(parts[0], tuple):
        return tuple(join.cat([p[i] for p in parts], 0) for i in range(len(parts[0])))
    return join.cat(parts, 0)


def _packed_direction(mode: str, data: Tensor, sizes: list, hidden, params: list,
                      reverse: bool, name: str) -> tuple:
    """One layer in one direction over packed data: PyTorch's PackedLayer (forward: finished
    sequences' hidden states sliced off as the batch shrinks) or ReversedPackedLayer
    (backward in time: hidden states of sequences that start later joined as it grows).
    Each time step is announced to the listener, as in `_one_direction`."""
    w_ih, w_hh = params[0], params[1]
    b_ih, b_hh = (params[2], params[3]) if len(params) == 4 else (None, None)
    igates = F.linear(data, w_ih, b_ih)
    outs, finished = [], []
    if not reverse:
        offset, last = 0, sizes[0]
        for t, n in enumerate(sizes):
            listener = _events.listener
            if listener is not None:
                listener.on_step_enter(name, t)
            try:
                step = igates.narrow(0, offset, n)
                offset += n
                if last > n:
                    finished.append(_slice(hidden, n, last))
                    hidden = _slice(hidden, 0, n)
                last = n
                hidden = _step(mode, step, hidden, w_hh, b_hh)
            finally:
                if listener is not None:
                    listener.on_step_exit()
            outs.append(hidden[0] if mode == "LSTM" else hidden)
        finished.append(hidden)
        return join.cat(outs, 0), _concat(finished[::-1])
    start, offset, last = hidden, data.shape[0], sizes[-1]
    hidden = _slice(start, 0, sizes[-1])
    for t in range(len(sizes) - 1, -1, -1):
        n = sizes[t]
        listener = _events.listener
        if listener is not None:
            listener.on_step_enter(name, t)
        try:
            if n > last:
                hidden = _concat([hidden, _slice(start, last, n)])
            step = igates.narrow(0, offset - n, n)
            offset -= n
            last = n
            hidden = _step(mode, step, hidden, w_hh, b_hh)
        finally:
            if listener is not None:
                listener.on_step_exit()
        outs.append(hidden[0] if mode == "LSTM" else hidden)
    return join.cat(outs[::-1], 0), hidden


def run_packed(mode: str, data: Tensor, batch_sizes: Tensor, hx, weights: list,
               num_layers: int, dropout: float, train: bool, bidirectional: bool) -> tuple:
    """(output data, h_n) or (output data, (h_n, c_n)) of the stacked layers over packed
    data (`batch_sizes` as the PackedSequence holds it)."""
    sizes = [int(n) for n in batch_sizes._data]
    dirs = 2 if bidirectional else 1
    starts = list(zip(hx[0].unbind(0), hx[1].unbind(0))) if mode == "LSTM" \
        else list(hx.unbind(0))
    finals = []
    x = data
    for layer in range(num_layers):
        outs = []
        for d in range(dirs):
            k = layer * dirs + d
            out, last = _packed_direction(mode, x, sizes, starts[k], weights[k], d == 1,
                                          _step_name(layer, d))
            outs.append(out)
            finals.append(last)
        x = outs[0] if dirs == 1 else join.cat(outs, outs[0].ndim - 1)
        if dropout != 0 and train and layer < num_layers - 1:
            x = F.dropout(x, dropout, True)
    if mode == "LSTM":
        return x, (join.stack([h for h, _ in finals], 0), join.stack([c for _, c in finals], 0))
    return x, join.stack(finals, 0)


__all__ = ["rnn_tanh_cell", "rnn_relu_cell", "lstm_cell", "gru_cell", "run_layers",
           "run_packed"]
