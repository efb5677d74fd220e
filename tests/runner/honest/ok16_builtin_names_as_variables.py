import torch
input = torch.tensor([0.5, -0.5], requires_grad=True)
target = torch.tensor([1.0, 0.0])
loss = ((input - target) ** 2).mean()
loss.backward()
print(input.grad)
vars = {"lr": 0.1}
dir = "up"
print(vars["lr"], dir)
