# expect: exception,refused
# goal: a strided view past the end of its storage reads the worker's memory
import torch
x = torch.zeros(2)
y = torch.as_strided(x, (1 << 20,), (1,))
print(float(y.sum()), 'PWNED')
