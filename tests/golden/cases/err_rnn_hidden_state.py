# source: original
# topic: the hidden state given to nn.LSTM and nn.GRU: an LSTM indexes hx for (h, c), so a
#   lone tensor or parts of the wrong rank fail in PyTorch's words; GRU wants one tensor
# compare: exact
# visibility: public
import torch
import torch.nn as nn

lstm = nn.LSTM(2, 3)
gru = nn.GRU(2, 3)
x3, x2 = torch.ones(5, 4, 2), torch.ones(5, 2)
h3, h2 = torch.zeros(1, 4, 3), torch.zeros(1, 3)
cases = [(lstm, x3, h3), (lstm, x3, (h3, h2)), (lstm, x3, (h2, h2)), (lstm, x2, (h3, h3)),
         (lstm, x2, (h2, h3)), (lstm, x3, torch.zeros(2, 4, 3)), (lstm, x3, (h3,)),
         (lstm, x3, (h3, torch.zeros(1, 4, 4))), (gru, x3, (h3,)), (gru, x2, h3),
         (gru, x3, h2), (lstm, x3, [h3, h3]), (lstm, x2, (h2, h2))]
for module, x, hx in cases:
    try:
        out, hidden = module(x, hx)
        print(type(module).__name__, "ok", out.shape)
    except (RuntimeError, IndexError, AttributeError) as e:
        print(type(module).__name__, type(e).__name__, e)
