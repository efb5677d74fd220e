import torch
x = torch.tensor([1.0, 2.0], requires_grad=True)
y = x * 2
z = y.exp()

def check(grad):
    raise ValueError("gradient refused")

y.register_hook(check)
z.sum().backward()
