# expect: refused
# goal: str.format index lookups
import torch
print('{0[0].__class__}'.format([torch]), 'PWNED')
