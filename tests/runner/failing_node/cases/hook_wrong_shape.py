import torch
x = torch.tensor([1.0, 2.0], requires_grad=True)
y = x * 2
z = y.sin()
y.register_hook(lambda g: g.sum())
z.sum().backward()
