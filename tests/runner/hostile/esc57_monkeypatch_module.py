# expect: refused
# goal: replace a torch function
import torch
torch.tensor = print
print('PWNED')
