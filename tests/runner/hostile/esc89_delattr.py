# expect: refused
# goal: delete an attribute of the engine
import torch
del torch.tensor
print('PWNED')
