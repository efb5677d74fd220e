# expect: refused
# goal: a dtype's pickling hook
import torch
print(torch.float32.__reduce__(), 'PWNED')
