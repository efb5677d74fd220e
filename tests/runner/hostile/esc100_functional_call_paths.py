# expect: exception
# goal: functional_call's dotted names climb from a module to its class and globals
import torch
from torch.func import functional_call
m = torch.nn.Linear(1, 1)
functional_call(m, {"forward.__globals__.x": torch.ones(1)}, (torch.ones(1),))
print('PWNED')
