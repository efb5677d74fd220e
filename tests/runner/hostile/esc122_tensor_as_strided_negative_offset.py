# expect: exception,refused
# goal: a strided view before the start of its storage (a negative storage offset)
import torch
x = torch.zeros(4)
y = x.as_strided((4,), (1,), -64)
print(float(y.sum()), 'PWNED')
