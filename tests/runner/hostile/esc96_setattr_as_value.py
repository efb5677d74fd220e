# expect: refused
# goal: setattr passed around as a value
import torch
s = setattr
s(torch, 'tensor', print)
print('PWNED')
