import torch
x = torch.tensor([0.5, -1.0, 2.0], requires_grad=True)
y = x.exp()
y.add_(1)
loss = (y * 3).sum()
loss.backward()
