# expect: refused
# goal: an engine function's __globals__ holds real builtins
import torch
torch.tensor.__globals__['__builtins__']['open']('@MARKER@', 'w')
