# expect: refused
# goal: replace a Tensor method for everyone
import torch
torch.Tensor.backward = print
print('PWNED')
