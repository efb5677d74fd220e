import torch
x = torch.tensor([0.1, 0.2], requires_grad=True)
y = x.tanh()
z = y * 3
w = z + 1
y.mul_(2)
w.sum().backward()
