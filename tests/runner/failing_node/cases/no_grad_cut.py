import torch
x = torch.tensor([1.0, 2.0], requires_grad=True)
with torch.no_grad():
    y = x * 2
loss = (y ** 2).sum()
loss.backward()
