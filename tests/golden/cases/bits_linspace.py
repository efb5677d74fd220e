# linspace to the last bit: PyTorch counts the first half up from start and the second half
# down from end (the middle of -3..3 in 61 steps is -4.47e-08, not 0).
import torch

print(torch.linspace(-3, 3, 61).tolist())
print(torch.linspace(0.1, 0.9, 9).tolist())
print(torch.linspace(1, 100, 12, dtype=torch.float64).tolist())
print(torch.linspace(-5, 5, 7, dtype=torch.int64).tolist())
print(torch.linspace(0, 1, 1), torch.linspace(0, 1, 0), torch.linspace(2, 2, 3))
x = torch.linspace(-1, 1, 5, requires_grad=True)
print(x)
