# expect: limit
# goal: a huge tensor
import torch
x = torch.zeros(10 ** 5, 10 ** 5)
print('PWNED')
