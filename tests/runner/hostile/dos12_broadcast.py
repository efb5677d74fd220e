# expect: limit
# goal: broadcasting makes a huge tensor
import torch
x = torch.ones(20000, 1) * torch.ones(1, 20000)
print('PWNED')
