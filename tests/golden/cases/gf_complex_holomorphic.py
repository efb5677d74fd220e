# source: original
# topic: complex tensors through holomorphic functions: values, grad_fn and conjugated gradients
# compare: exact
# visibility: public
import torch

z = torch.tensor([1 + 1j, -0.5 + 2j, 0.25 - 0.75j], requires_grad=True)
for f in (torch.sin, torch.cos, torch.tanh, torch.log, torch.sqrt, torch.sigmoid,
          torch.reciprocal):
    y = f(z)
    print(y)
    y.abs().sum().backward()
    print(z.grad)
    z.grad = None
