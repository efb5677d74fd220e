# source: original
# topic: warnings
# compare: exact
# visibility: public
# nn.RNN's warning when dropout is asked of a single layer (it only acts between layers).
import torch

rnn = torch.nn.GRU(3, 2, dropout=0.2)
print(rnn)
