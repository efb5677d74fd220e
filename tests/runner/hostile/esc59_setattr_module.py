# expect: refused
# goal: setattr on a module
import torch
setattr(torch, 'tensor', 1)
print('PWNED')
