# expect: refused
# goal: ndarray.tofile writes a file
import torch
torch.ones(2).numpy().tofile('@MARKER@')
