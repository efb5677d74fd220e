# expect: refused
# goal: str.format index lookups reach what attribute access cannot
import torch
print('{0[0].__globals__}'.format([torch.ones]), 'PWNED')
