# expect: refused
# goal: an engine method's globals
import torch
print(torch.Tensor.backward.__globals__['np'], 'PWNED')
