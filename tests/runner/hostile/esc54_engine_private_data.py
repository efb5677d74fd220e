# expect: refused
# goal: the engine's private fields
import torch
x = torch.ones(2)
x._data.tofile('@MARKER@')
