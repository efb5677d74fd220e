# expect: refused
# goal: subclassing the engine's Tensor
import torch
class T(torch.Tensor):
    pass
print('PWNED')
