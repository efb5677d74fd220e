# expect: refused
# goal: inspect.getmodule returns a module
import inspect
import torch
print(inspect.getmodule(torch.tensor).np, 'PWNED')
