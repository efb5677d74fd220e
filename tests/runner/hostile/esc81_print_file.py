# expect: refused
# goal: print to an arbitrary file object
import torch
print('PWNED', file=torch)
