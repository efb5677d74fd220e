# source: original
# topic: the recurrent layers' argument checks, caught and printed in PyTorch's words
# compare: exact
# visibility: public
import torch

cell = torch.nn.RNNCell(3, 2)
lstm_cell = torch.nn.LSTMCell(3, 2)
rnn = torch.nn.RNN(3, 2)
lstm = torch.nn.LSTM(3, 2, num_layers=2)
calls = [
    lambda: cell(torch.ones(2, 4)),
    lambda: cell(torch.ones(2, 3), torch.zeros(3, 2)),
    lambda: cell(torch.ones(1, 2, 3)),
    lambda: lstm_cell(torch.ones(2, 3), (torch.zeros(2, 2), torch.zeros(1, 2, 2))),
    lambda: lstm_cell(torch.ones(2, 3), (torch.zeros(2, 2), torch.zeros(3, 2))),
    lambda: cell(torch.ones(2, 3), torch.zeros(2, 3)),
    lambda: lstm_cell(torch.ones(2, 3), (torch.zeros(2, 2), torch.zeros(2, 5))),
    lambda: torch.nn.RNNCell(3, 2, nonlinearity="sigmoid")(torch.ones(2, 3)),
    lambda: rnn(torch.ones(4, 3)[0]),
    lambda: rnn(torch.ones(5, 2, 4)),
    lambda: rnn(torch.ones(5, 2, 3), torch.zeros(1, 3, 2)),
    lambda: rnn(torch.ones(5, 2, 3), torch.zeros(3, 2)),
    lambda: rnn(torch.ones(5, 3), torch.zeros(1, 1, 2)),
    lambda: lstm(torch.ones(5, 2, 3), (torch.zeros(2, 2, 2), torch.zeros(1, 2, 2))),
    lambda: torch.nn.RNN(3, 2, nonlinearity="gelu"),
    lambda: torch.nn.GRU(3, 0),
    lambda: torch.nn.GRU(3, 2, num_layers=0),
    lambda: torch.nn.LSTM(3, 2, dropout=1.5),
]
for call in calls:
    try:
        call()
    except (RuntimeError, ValueError, TypeError) as e:
        print(type(e).__name__, e)
