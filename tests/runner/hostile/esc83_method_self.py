# expect: refused
# goal: a bound method's __self__ / __func__
import torch
x = torch.ones(1)
print(x.sum.__func__.__globals__, 'PWNED')
