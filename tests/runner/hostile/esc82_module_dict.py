# expect: refused
# goal: a module proxy's internals
import torch
print(torch._sbx_names, 'PWNED')
