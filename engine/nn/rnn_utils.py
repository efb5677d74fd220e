"""`torch.nn.utils.rnn`: sequences of different lengths packed for the recurrent layers.

PyTorch counterparts: `PackedSequence`, `pack_padded_sequence`, `pad_packed_sequence`,
`pad_sequence`, `pack_sequence`. A PackedSequence keeps the time steps of every sequence one
after another, the longest first at each step (`batch_sizes[t]` sequences are still running
at step t); `nn.RNN`, `nn.LSTM` and `nn.GRU` take it and answer one
(`functional_rnn.run_packed`).
"""
from __future__ import annotations

from collections import namedtuple

import numpy as np

from .._names import TorchNamed
from ..factories import full, tensor
from ..ops.join import cat, stack
from ..ops._op import Op
from ..tensor import Tensor, new_tensor
from ..dtypes import int64


class PackedSequence(namedtuple("PackedSequence", ["data", "batch_sizes", "sorted_indices",
                                                   "unsorted_indices"]), metaclass=TorchNamed):
    """(data, batch_sizes, sorted_indices, unsorted_indices), as PyTorch's."""

    __slots__ = ()
    _torch_name = "torch.nn.utils.rnn.PackedSequence"

    def __new__(cls, data, batch_sizes=None, sorted_indices=None, unsorted_indices=None):
        if unsorted_indices is None and sorted_indices is not None:
            unsorted_indices = _invert(sorted_indices)
        return super().__new__(cls, data, batch_sizes, sorted_indices, unsorted_indices)


def _invert(permutation: Tensor) -> Tensor:
    out = np.empty_like(permutation._data)
    out[permutation._data] = np.arange(permutation._data.size)
    return new_tensor(out)


def _rows(lengths: np.ndarray, steps: int, batch: int) -> np.ndarray:
    """For each time-major padded position (t * batch + b), its row in the packed data, or
    the index one past the last row where the position is padding."""
    where = np.full(steps * batch, int(lengths.sum()), dtype=np.int64)
    row = 0
    for t in range(steps):
        for b in range(int((lengths > t).sum())):
            where[t * batch + b] = row
            row += 1
    return where


class PackPaddedSequence(Op):
    """data = the padded input's steps, each cut to the sequences still running, joined"""
    grad_fn_name, name = "PackPaddedSequenceBackward0", "_pack_padded_sequence"
    saves = ("batch_first", "input_sym_sizes", "result1")
    forward_extras = ("result1",)
    rule = "grad spread back to the padded positions, zeros at the padding"

    def forward(input, lengths, batch_first):
        x = np.swapaxes(input, 0, 1) if batch_first else input
        sizes = np.array([int((lengths > t).sum()) for t in range(int(lengths[0]))],
                         dtype=np.int64)
        data = np.concatenate([x[t, :n] for t, n in enumerate(sizes)], axis=0)
        return data, (new_tensor(sizes),)

    def backward(ctx, grad):
        sizes = tuple(ctx.input_sym_sizes)
        steps, batch = (sizes[1], sizes[0]) if ctx.batch_first else sizes[:2]
        counts = ctx.result1._data
        lengths = np.array([int((counts > b).sum()) for b in range(batch)])
        index = new_tensor(_rows(lengths, steps, batch))
        padded = cat([grad, grad.new_zeros((1,) + tuple(grad.shape[1:]))], 0)
        out = padded.index_select(0, index).view((steps, batch) + tuple(grad.shape[1:]))
        return (out.transpose(0, 1) if ctx.batch_first else out,)

    @classmethod
    def sample_inputs(cls, make, shape):
        yield make((3, 2, 2)), np.array([3, 1]), False


def pack_padded_sequence(input: Tensor, lengths, batch_first: bool = False,
                         enforce_sorted: bool = True) -> PackedSequence:
    """Pack a padded (T, B, *) batch (or (B, T, *)) of sequences of the given lengths.

    Example:
        >>> import gradstep.engine as torch
        >>> p = pack_padded_sequence(torch.ones(3, 2, 1), [3, 1])
        >>> p.batch_sizes
        tensor([2, 1, 1])
    """
    lengths = lengths if isinstance(lengths, Tensor) else tensor(lengths)
    lengths = lengths.to(_int64())
    sorted_indices = None
    if enforce_sorted:
        if np.any(np.diff(lengths._data) > 0):
            raise RuntimeError("`lengths` array must be sorted in decreasing order when "
                               "`enforce_sorted` is True. You can pass `enforce_sorted=False` "
                               "to pack_padded_sequence and/or pack_sequence to sidestep this "
                               "requirement if you do not need ONNX exportability.")
    else:
        order = np.argsort(-lengths._data, kind="stable")
        sorted_indices = new_tensor(order.astype(np.int64))
        lengths = new_tensor(lengths._data[order])
        input = input.index_select(0 if batch_first else 1, sorted_indices)
    if lengths._data.size and lengths._data.min() <= 0:
        raise RuntimeError("Length of all samples has to be greater than 0, but found an "
                           "element in 'lengths' that is <= 0")
    data, batch_sizes = _pack(input, lengths._data, batch_first)
    return PackedSequence(data, batch_sizes, sorted_indices, None)


def _pack(input: Tensor, lengths: np.ndarray, batch_first: bool) -> tuple:
    sizes = [int((lengths > t).sum()) for t in range(int(lengths[0]))]
    data = PackPaddedSequence.apply(input, lengths, batch_first)
    return data, new_tensor(np.array(sizes, dtype=np.int64))


def _int64():
    return int64


def pad_packed_sequence(sequence: PackedSequence, batch_first: bool = False,
                        padding_value: float = 0.0, total_length=None) -> tuple:
    """(padded, lengths): a PackedSequence back to a padded (T, B, *) batch (or (B, T, *)),
    filled with padding_value, and each sequence's length.

    Example:
        >>> import gradstep.engine as torch
        >>> padded, lengths = pad_packed_sequence(pack_padded_sequence(torch.ones(3, 2), [3, 1]))
        >>> padded.tolist(), lengths
        ([[1.0, 1.0], [1.0, 0.0], [1.0, 0.0]], tensor([3, 1]))
    """
    data, batch_sizes = sequence.data, sequence.batch_sizes._data
    steps = len(batch_sizes)
    if total_length is not None:
        if total_length < steps:
            raise ValueError("Expected total_length to be at least the length of the longest "
                             f"sequence in input, but got total_length={total_length} and max "
                             f"sequence length being {steps}")
        steps = total_length
    batch = int(batch_sizes[0])
    out = full((steps, batch) + tuple(data.shape[1:]), padding_value, dtype=data.dtype)
    offset, prev_i, prev_b = 0, 0, batch
    for i in range(len(batch_sizes) + 1):       # PyTorch's loop: one copy per run of sizes
        b = int(batch_sizes[i]) if i < len(batch_sizes) else 0
        if b != prev_b:
            n = prev_b * (i - prev_i)
            piece = data[offset:offset + n].view((i - prev_i, prev_b) + tuple(data.shape[1:]))
            out[prev_i:i, :prev_b] = piece
            offset, prev_i = offset + n, i
        prev_b = b
    lengths = new_tensor(np.array([int((batch_sizes > j).sum()) for j in range(batch)],
                                  dtype=np.int64))
    if batch_first:
        out = out.transpose(0, 1)
    if sequence.unsorted_indices is not None:
        return (out.index_select(0 if batch_first else 1, sequence.unsorted_indices),
                new_tensor(lengths._data[sequence.unsorted_indices._data]))
    return out, lengths


def pad_sequence(sequences, batch_first: bool = False, padding_value: float = 0.0,
                 padding_side: str = "right") -> Tensor:
    """Stack tensors of different lengths (along dim 0) into one padded batch."""
    longest = max(s.shape[0] for s in sequences)
    padded = []
    for s in sequences:
        fill = full((longest - s.shape[0],) + tuple(s.shape[1:]), padding_value,
                    dtype=s.dtype)
        padded.append(cat([s, fill] if padding_side == "right" else [fill, s], 0))
    return stack(padded, 0 if batch_first else 1)


def pack_sequence(sequences, enforce_sorted: bool = True) -> PackedSequence:
    """pad_sequence, then pack_padded_sequence with the sequences' lengths."""
    lengths = [s.shape[0] for s in sequences]
    return pack_padded_sequence(pad_sequence(sequences), lengths,
                                enforce_sorted=enforce_sorted)


__all__ = ["PackedSequence", "pack_padded_sequence", "pad_packed_sequence", "pad_sequence",
           "pack_sequence"]
