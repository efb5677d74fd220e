# var, std and cumsum printed to the last bit: PyTorch computes variances in float64 (over
# everything: squares about the float32 mean) and rounds once, cumsum accumulates float32 in
# float64, and var's gradient is (2 / (N - correction)) * grad * (x - mean).
import torch

x = (((torch.arange(20.0) * 7) % 17 - 8) / 2.3).reshape(4, 5).requires_grad_()
print(x.var().item(), x.std().item(), x.var(unbiased=False).item())
print(x.var(1).tolist(), x.std(0).tolist())
print(x.cumsum(1).tolist())
x.var().backward()
print(x.grad.tolist())
x.grad = None
x.std(1).backward(torch.tensor([1.0, -2.0, 0.5, 3.0]))
print(x.grad.tolist())
x.grad = None
x.cumsum(0).backward(((torch.arange(20.0) * 3) % 7).reshape(4, 5) / 1.9)
print(x.grad.tolist())
