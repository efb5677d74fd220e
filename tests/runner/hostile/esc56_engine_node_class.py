# expect: refused
# goal: a grad_fn's class and its globals
import torch
x = torch.ones(2, requires_grad=True)
y = x * 2
print(y.grad_fn.__class__.__init__.__globals__, 'PWNED')
