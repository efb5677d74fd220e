"""Recurrent layers: `nn.RNNCell`, `nn.LSTMCell`, `nn.GRUCell` (one step) and `nn.RNN`,
`nn.LSTM`, `nn.GRU` (whole sequences, stacked layers, both directions).

PyTorch counterparts: `torch.nn.modules.rnn`. Parameters carry PyTorch's names
(`weight_ih_l0`, `bias_hh_l1_reverse`, ...) in its order and start as PyTorch's do: every one
drawn from U(-1/sqrt(hidden_size), 1/sqrt(hidden_size)) in that order, so a seeded program
gets PyTorch's weights. The arithmetic is in `functional_rnn.py`; a float32 LSTM is recorded
as PyTorch's CPU build records it, one `MkldnnRnnLayerBackward0` node per layer.
"""
from __future__ import annotations

import math
import numbers

from .. import messages
from ..dtypes import float32
from ..factories import empty, zeros
from ..ops.mkldnn_rnn import mkldnn_lstm
from ..tensor import Tensor
from . import functional_rnn as R
from . import init
from .module import Module
from .parameter import Parameter
from .rnn_utils import PackedSequence

_GATES = {"RNN_TANH": 1, "RNN_RELU": 1, "LSTM": 4, "GRU": 3}


class RNNCellBase(Module):
    """The parameters shared by the cells: weight_ih, weight_hh, bias_ih, bias_hh."""

    def __init__(self, input_size: int, hidden_size: int, bias: bool, num_chunks: int,
                 device=None, dtype=None) -> None:
        super().__init__()
        self.input_size = input_size
        self.hidden_size = hidden_size
        self.bias = bias
        self.weight_ih = Parameter(empty(num_chunks * hidden_size, input_size, dtype=dtype))
        self.weight_hh = Parameter(empty(num_chunks * hidden_size, hidden_size, dtype=dtype))
        if bias:
            self.bias_ih = Parameter(empty(num_chunks * hidden_size, dtype=dtype))
            self.bias_hh = Parameter(empty(num_chunks * hidden_size, dtype=dtype))
        else:
            self.register_parameter("bias_ih", None)
            self.register_parameter("bias_hh", None)
        self.reset_parameters()

    def reset_parameters(self) -> None:
        stdv = 1.0 / math.sqrt(self.hidden_size) if self.hidden_size > 0 else 0
        for weight in self.parameters():
            init.uniform_(weight, -stdv, stdv)

    def extra_repr(self) -> str:
        s = f"{self.input_size}, {self.hidden_size}"
        if self.bias is not True:
            s += f", bias={self.bias}"
        if getattr(self, "nonlinearity", "tanh") != "tanh":
            s += f", nonlinearity={self.nonlinearity}"
        return s

    def _batched(self, input: Tensor, hx, what: str) -> tuple:
        """(input as a batch, hx as a batch or None, whether input was batched)."""
        if input.dim() not in (1, 2):
            raise ValueError(f"{what}: Expected input to be 1D or 2D, got {input.dim()}D "
                             "instead")
        hs = hx if isinstance(hx, (tuple, list)) else (() if hx is None else (hx,))
        for i, h in enumerate(hs):
            if h.dim() not in (1, 2):
                label = f"hx[{i}]" if isinstance(hx, (tuple, list)) else "hidden"
                raise ValueError(f"{what}: Expected {label} to be 1D or 2D, got {h.dim()}D "
                                 "instead")
        batched = input.dim() == 2
        if batched:
            return input, hx, True
        if isinstance(hx, (tuple, list)):
            hx = tuple(h.unsqueeze(0) for h in hx)
        elif hx is not None:
            hx = hx.unsqueeze(0)
        return input.unsqueeze(0), hx, False

    def _zeros(self, input: Tensor) -> Tensor:
        return zeros(input.shape[0], self.hidden_size, dtype=input.dtype)


class RNNCell(RNNCellBase):
    """h' = tanh(x W_ih^T + b_ih + h W_hh^T + b_hh) (or relu), one step.

    Example:
        >>> import gradstep.engine as torch
        >>> cell = torch.nn.RNNCell(3, 2)
        >>> cell, type(cell(torch.ones(4, 3)).grad_fn).__name__
        (RNNCell(3, 2), 'TanhBackward0')
    """

    def __init__(self, input_size: int, hidden_size: int, bias: bool = True,
                 nonlinearity: str = "tanh", device=None, dtype=None) -> None:
        super().__init__(input_size, hidden_size, bias, 1, device, dtype)
        self.nonlinearity = nonlinearity

    def forward(self, input: Tensor, hx: Tensor | None = None) -> Tensor:
        input, hx, batched = self._batched(input, hx, "RNNCell")
        hx = self._zeros(input) if hx is None else hx
        args = (input, hx, self.weight_ih, self.weight_hh, self.bias_ih, self.bias_hh)
        if self.nonlinearity == "tanh":
            ret = R.rnn_tanh_cell(*args)
        elif self.nonlinearity == "relu":
            ret = R.rnn_relu_cell(*args)
        else:
            raise RuntimeError(f"Unknown nonlinearity: {self.nonlinearity}")
        return ret if batched else ret.squeeze(0)


class LSTMCell(RNNCellBase):
    """(h', c') of one LSTM step; gates i, f, g, o stacked in that order in the weights.

    Example:
        >>> import gradstep.engine as torch
        >>> h, c = torch.nn.LSTMCell(3, 2)(torch.ones(4, 3))
        >>> type(h.grad_fn).__name__, type(c.grad_fn).__name__
        ('MulBackward0', 'AddBackward0')
    """

    def __init__(self, input_size: int, hidden_size: int, bias: bool = True, device=None,
                 dtype=None) -> None:
        super().__init__(input_size, hidden_size, bias, 4, device, dtype)

    def forward(self, input: Tensor, hx=None) -> tuple:
        input, hx, batched = self._batched(input, hx, "LSTMCell")
        if hx is None:
            z = self._zeros(input)
            hx = (z, z)
        h, c = R.lstm_cell(input, hx, self.weight_ih, self.weight_hh, self.bias_ih,
                           self.bias_hh)
        return (h, c) if batched else (h.squeeze(0), c.squeeze(0))


class GRUCell(RNNCellBase):
    """h' of one GRU step; gates r, z, n stacked in that order in the weights.

    Example:
        >>> import gradstep.engine as torch
        >>> type(torch.nn.GRUCell(3, 2)(torch.ones(4, 3)).grad_fn).__name__
        'AddBackward0'
    """

    def __init__(self, input_size: int, hidden_size: int, bias: bool = True, device=None,
                 dtype=None) -> None:
        super().__init__(input_size, hidden_size, bias, 3, device, dtype)

    def forward(self, input: Tensor, hx: Tensor | None = None) -> Tensor:
        input, hx, batched = self._batched(input, hx, "GRUCell")
        hx = self._zeros(input) if hx is None else hx
        ret = R.gru_cell(input, hx, self.weight_ih, self.weight_hh, self.bias_ih, self.bias_hh)
        return ret if batched else ret.squeeze(0)


class RNNBase(Module):
    """What RNN, LSTM and GRU share: the stacked, per-direction parameters and the checks."""

    def __init__(self, mode: str, input_size: int, hidden_size: int, num_layers: int = 1,
                 bias: bool = True, batch_first: bool = False, dropout: float = 0.0,
                 bidirectional: bool = False, proj_size: int = 0, device=None,
                 dtype=None) -> None:
        super().__init__()
        _check_sizes(hidden_size, num_layers, dropout, proj_size)
        if proj_size:
            raise NotImplementedError("gradstep does not implement nn.LSTM's proj_size")
        self.mode, self.input_size, self.hidden_size = mode, input_size, hidden_size
        self.num_layers, self.bias, self.batch_first = num_layers, bias, batch_first
        self.dropout, self.bidirectional = float(dropout), bidirectional
        self.proj_size = proj_size
        if dropout > 0 and num_layers == 1:
            messages.warn("dropout option adds dropout after all but last recurrent layer, so "
                          "non-zero dropout expects num_layers greater than 1, but got "
                          f"dropout={dropout} and num_layers={num_layers}", UserWarning)
        gate = _GATES[mode] * hidden_size
        dirs = 2 if bidirectional else 1
        self._flat_weights_names = []
        for layer in range(num_layers):
            for d in range(dirs):
                size_in = input_size if layer == 0 else hidden_size * dirs
                suffix = f"_l{layer}" + ("_reverse" if d == 1 else "")
                shapes = [("weight_ih", (gate, size_in)), ("weight_hh", (gate, hidden_size))]
                if bias:
                    shapes += [("bias_ih", (gate,)), ("bias_hh", (gate,))]
                for name, shape in shapes:
                    setattr(self, name + suffix, Parameter(empty(*shape, dtype=dtype)))
                    self._flat_weights_names.append(name + suffix)
        self.reset_parameters()

    def reset_parameters(self) -> None:
        stdv = 1.0 / math.sqrt(self.hidden_size) if self.hidden_size > 0 else 0
        for weight in self.parameters():
            init.uniform_(weight, -stdv, stdv)

    def flatten_parameters(self) -> None:
        """A no-op on the CPU, as in PyTorch (it packs weights for cuDNN)."""

    @property
    def _flat_weights(self) -> list:
        return [getattr(self, n) for n in self._flat_weights_names]

    @property
    def all_weights(self) -> list:
        per = 4 if self.bias else 2
        w = self._flat_weights
        return [w[i:i + per] for i in range(0, len(w), per)]

    def extra_repr(self) -> str:
        s = f"{self.input_size}, {self.hidden_size}"
        if self.proj_size != 0:
            s += f", proj_size={self.proj_size}"
        if self.num_layers != 1:
            s += f", num_layers={self.num_layers}"
        if self.bias is not True:
            s += f", bias={self.bias}"
        if self.batch_first is not False:
            s += f", batch_first={self.batch_first}"
        if self.dropout != 0:
            s += f", dropout={self.dropout}"
        if self.bidirectional is not False:
            s += f", bidirectional={self.bidirectional}"
        return s

    def _prepare(self, input: Tensor, hx, what: str) -> tuple:
        """(input batched, hx batched or None, whether input was batched), with PyTorch's
        checks of ranks and sizes."""
        if input.dim() not in (2, 3):
            raise ValueError(f"{what}: Expected input to be 2D or 3D, got {input.dim()}D "
                             "tensor instead")
        batched = input.dim() == 3
        hs = () if hx is None else self._hidden_parts(hx, 3 if batched else 2)
        if not batched:
            input = input.unsqueeze(0 if self.batch_first else 1)
            hs = tuple(h.unsqueeze(1) for h in hs)
        if self.input_size != input.shape[-1]:
            raise RuntimeError("input.size(-1) must be equal to input_size. Expected "
                               f"{self.input_size}, got {input.shape[-1]}")
        batch = input.shape[0 if self.batch_first else 1]
        expected = (self.num_layers * (2 if self.bidirectional else 1), batch, self.hidden_size)
        if not hs:
            hs = tuple(zeros(*expected, dtype=input.dtype)
                       for _ in range(2 if self.mode == "LSTM" else 1))
        for i, h in enumerate(hs):
            if tuple(h.shape) != expected:
                label = f"[{i}]" if self.mode == "LSTM" else ""
                raise RuntimeError(f"Expected hidden{label} size {expected}, got "
                                   f"{list(h.shape)}")
        return input, hs, batched

    def _hidden_parts(self, hx, rank: int) -> tuple:
        """The given hidden state as a tuple, each part of the input's rank. As PyTorch, an
        LSTM indexes hx for (h, c), so a lone tensor is taken apart along dimension 0."""
        kind = "batched 3-D" if rank == 3 else "unbatched 2-D"
        if self.mode == "LSTM":
            if hx[0].dim() != rank or hx[1].dim() != rank:
                raise RuntimeError(f"For {kind} input, hx and cx should also be {rank}-D but "
                                   f"got ({hx[0].dim()}-D, {hx[1].dim()}-D) tensors")
            return hx[0], hx[1]
        if hx.dim() != rank:
            raise RuntimeError(f"For {kind} input, hx should also be {rank}-D but got "
                               f"{hx.dim()}-D tensor")
        return (hx,)

    def _weights(self) -> list:
        per = 4 if self.bias else 2
        flat = self._flat_weights
        return [flat[i:i + per] for i in range(0, len(flat), per)]

    def _forward_packed(self, packed: PackedSequence, hx) -> tuple:
        """PyTorch's path for a PackedSequence: hx in the sorted order, back afterwards."""
        data, batch_sizes, sorted_indices, unsorted_indices = packed
        expected = (self.num_layers * (2 if self.bidirectional else 1), int(batch_sizes[0]),
                    self.hidden_size)
        if data.dim() != 2:
            raise RuntimeError(f"input must have 2 dimensions, got {data.dim()}")
        if self.input_size != data.shape[-1]:
            raise RuntimeError("input.size(-1) must be equal to input_size. Expected "
                               f"{self.input_size}, got {data.shape[-1]}")
        lstm = self.mode == "LSTM"
        if hx is None:
            hs = tuple(zeros(*expected, dtype=data.dtype) for _ in range(2 if lstm else 1))
        else:
            hs = tuple(_permute(h, sorted_indices) for h in (hx if lstm else (hx,)))
        out, hidden = R.run_packed(self.mode, data, batch_sizes, hs if lstm else hs[0],
                                   self._weights(), self.num_layers, self.dropout,
                                   self.training, self.bidirectional)
        hidden = tuple(_permute(h, unsorted_indices) for h in hidden) if lstm else \
            _permute(hidden, unsorted_indices)
        return PackedSequence(out, batch_sizes, sorted_indices, unsorted_indices), hidden

    def forward(self, input, hx=None):
        if isinstance(input, PackedSequence):
            return self._forward_packed(input, hx)
        input, hs, batched = self._prepare(input, hx, type(self).__name__)
        weights = self._weights()
        args = (self.num_layers, self.dropout, self.training, self.bidirectional,
                self.batch_first)
        if self.mode == "LSTM" and input.dtype == float32:      # the oneDNN kernel's dtype
            output, hidden = mkldnn_lstm(input, hs, weights, *args)
        else:
            output, hidden = R.run_layers(self.mode, input, hs if self.mode == "LSTM"
                                          else hs[0], weights, *args)
        if not batched:
            output = output.squeeze(0 if self.batch_first else 1)
            hidden = (tuple(h.squeeze(1) for h in hidden) if isinstance(hidden, tuple)
                      else hidden.squeeze(1))
        return output, hidden


def _permute(h: Tensor, permutation):
    return h if permutation is None else h.index_select(1, permutation)


def _check_sizes(hidden_size, num_layers, dropout, proj_size) -> None:
    if (not isinstance(dropout, numbers.Number) or isinstance(dropout, bool)
            or not 0 <= dropout <= 1):
        raise ValueError("dropout should be a number in range [0, 1] representing the "
                         "probability of an element being zeroed")
    if not isinstance(hidden_size, int):
        raise TypeError(f"hidden_size should be of type int, got: {type(hidden_size).__name__}")
    if hidden_size <= 0:
        raise ValueError("hidden_size must be greater than zero")
    if num_layers <= 0:
        raise ValueError("num_layers must be greater than zero")
    if proj_size < 0:
        raise ValueError("proj_size should be a positive integer or zero to disable "
                         "projections")


class RNN(RNNBase):
    """Elman RNN over a sequence: h_t = tanh(x_t W_ih^T + b_ih + h_{t-1} W_hh^T + b_hh).

    Example:
        >>> import gradstep.engine as torch
        >>> rnn = torch.nn.RNN(3, 2, num_layers=2)
        >>> out, h = rnn(torch.ones(5, 1, 3))
        >>> rnn, out.shape, h.shape
        (RNN(3, 2, num_layers=2), torch.Size([5, 1, 2]), torch.Size([2, 1, 2]))
    """

    def __init__(self, input_size: int, hidden_size: int, num_layers: int = 1,
                 nonlinearity: str = "tanh", bias: bool = True, batch_first: bool = False,
                 dropout: float = 0.0, bidirectional: bool = False, device=None,
                 dtype=None) -> None:
        if nonlinearity not in ("tanh", "relu"):
            raise ValueError(f"Unknown nonlinearity '{nonlinearity}'. Select from 'tanh' or "
                             "'relu'.")
        self.nonlinearity = nonlinearity
        super().__init__("RNN_TANH" if nonlinearity == "tanh" else "RNN_RELU", input_size,
                         hidden_size, num_layers, bias, batch_first, dropout, bidirectional,
                         0, device, dtype)


class LSTM(RNNBase):
    """LSTM over a sequence; returns output, (h_n, c_n).

    Example:
        >>> import gradstep.engine as torch
        >>> out, (h, c) = torch.nn.LSTM(3, 2)(torch.ones(5, 1, 3))
        >>> type(out.grad_fn).__name__, c.shape
        ('MkldnnRnnLayerBackward0', torch.Size([1, 1, 2]))
    """

    def __init__(self, input_size: int, hidden_size: int, num_layers: int = 1,
                 bias: bool = True, batch_first: bool = False, dropout: float = 0.0,
                 bidirectional: bool = False, proj_size: int = 0, device=None,
                 dtype=None) -> None:
        super().__init__("LSTM", input_size, hidden_size, num_layers, bias, batch_first,
                         dropout, bidirectional, proj_size, device, dtype)


class GRU(RNNBase):
    """GRU over a sequence; returns output, h_n.

    Example:
        >>> import gradstep.engine as torch
        >>> out, h = torch.nn.GRU(3, 2, batch_first=True)(torch.ones(1, 5, 3))
        >>> out.shape, type(h.grad_fn).__name__
        (torch.Size([1, 5, 2]), 'StackBackward0')
    """

    def __init__(self, input_size: int, hidden_size: int, num_layers: int = 1,
                 bias: bool = True, batch_first: bool = False, dropout: float = 0.0,
                 bidirectional: bool = False, device=None, dtype=None) -> None:
        super().__init__("GRU", input_size, hidden_size, num_layers, bias, batch_first,
                         dropout, bidirectional, 0, device, dtype)


__all__ = ["RNNCellBase", "RNNCell", "LSTMCell", "GRUCell", "RNNBase", "RNN", "LSTM", "GRU"]
