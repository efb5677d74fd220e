# expect: refused
# goal: str.format field traversal with dunders only in a string literal
import torch
print('{0.__globals__[__builtins__]}'.format(torch.tensor), 'PWNED')
