# source: original
# topic: the recurrent modules' reprs, parameter names and shapes, and the seeded initial weights
# compare: exact
# visibility: public
import torch
import torch.nn as nn

torch.manual_seed(0)
print(nn.RNN(3, 2, num_layers=2, nonlinearity="relu", bias=False, batch_first=True,
             dropout=0.5, bidirectional=True))
print(nn.RNNCell(3, 2, nonlinearity="relu", bias=False), nn.LSTMCell(4, 1), nn.GRUCell(2, 3))
lstm = nn.LSTM(2, 1, num_layers=2, bidirectional=True)
print(lstm)
for name, p in lstm.named_parameters():
    print(name, tuple(p.shape), p)
gru = nn.GRU(input_size=2, hidden_size=2, batch_first=True)
print(gru.state_dict())


class Tagger(nn.Module):
    def __init__(self):
        super().__init__()
        self.emb = nn.Embedding(5, 3)
        self.rnn = nn.LSTM(3, 4, batch_first=True)
        self.out = nn.Linear(4, 2)

    def forward(self, tokens):
        out, _ = self.rnn(self.emb(tokens))
        return self.out(out)


net = Tagger()
print(net)
print(net(torch.tensor([[1, 2, 3], [4, 0, 1]])))
print(sum(p.numel() for p in net.parameters()))
