# source: original
# topic: nn.utils.rnn: pad_sequence, pack_padded_sequence (sorted or not, batch_first), the recurrent layers on a PackedSequence, pad_packed_sequence, pack_sequence, errors
# compare: numeric
# visibility: public
# numeric: a 2-layer LSTM's weight gradients gather many per-step terms, and the order they
# are added in can move a near-zero entry's last bits
import torch
from torch import nn
from torch.nn.utils.rnn import (pack_padded_sequence, pack_sequence, pad_packed_sequence,
                                pad_sequence)

torch.manual_seed(0)
x = torch.tensor([[[1.0], [2.0]], [[3.0], [0.0]], [[4.0], [0.0]]], requires_grad=True)
p = pack_padded_sequence(x, torch.tensor([3, 1]))
print(p, p.data.grad_fn.next_functions)
rnn = torch.nn.RNN(1, 2)
out, h = rnn(p)
print(out, h, out.data.grad_fn.next_functions)
o, lens = pad_packed_sequence(out)
print(o, lens, o.grad_fn.name(), o.grad_fn.next_functions[1][0].next_functions)
(o.sum() + h.sum()).backward()
print(x.grad)
seqs = [torch.tensor([[1.0, 0.5], [2.0, -1.0]]), torch.tensor([[0.5, 0.5], [1.0, 1.0], [-1.0, 2.0]]),
        torch.tensor([[3.0, 0.0]])]
padded = pad_sequence(seqs, batch_first=True)
print(padded, pad_sequence(seqs).shape)
lengths = torch.tensor([2, 3, 1])
for cls, kw in ((nn.GRU, {"bidirectional": True}), (nn.LSTM, {"num_layers": 2}), (nn.RNN, {"bidirectional": True, "num_layers": 2})):
    m = cls(2, 3, batch_first=True, **kw)
    x = padded.clone().requires_grad_()
    packed = pack_padded_sequence(x, lengths, batch_first=True, enforce_sorted=False)
    print(packed.sorted_indices, packed.unsorted_indices, packed.batch_sizes)
    out, h = m(packed)
    o, lens = pad_packed_sequence(out, batch_first=True)
    print(o, lens)
    print(h)
    hh = h[0] if isinstance(h, tuple) else h
    (o.sum() + hh.sum()).backward()
    print(x.grad)
    print(m.weight_hh_l0.grad)
    print(o.grad_fn, hh.grad_fn, hh.grad_fn.next_functions[0][0])
p = pack_sequence([seqs[1], seqs[0], seqs[2]])
print(p)
print(pad_packed_sequence(p, total_length=5, padding_value=-1.0))
h0 = torch.zeros(1, 3, 3, requires_grad=True)
gru = nn.GRU(2, 3)
out, h = gru(pack_sequence(seqs, enforce_sorted=False), h0)
h.sum().backward()
print(h0.grad)
for bad in (lambda: pack_padded_sequence(padded, [2, 3, 1], batch_first=True),
            lambda: pad_packed_sequence(p, total_length=2)):
    try:
        bad()
    except (RuntimeError, ValueError) as e:
        print(type(e).__name__, e)
