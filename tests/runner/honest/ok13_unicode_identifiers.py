import torch
α = 0.1
学习率 = 0.01
θ = torch.tensor([1.0], requires_grad=True)
(θ * α).sum().backward()
print(θ.grad, 学习率, "ünïcödé ✓")
