# source: original
# topic: printing
# compare: exact
# visibility: public
# A seeded nn.Conv2d: its repr, PyTorch's initial weights and bias, and one forward pass.
import torch
import torch.nn as nn
torch.manual_seed(0)
conv = nn.Conv2d(1, 2, 3)
print(conv)
print(conv.weight)
print(conv.bias)
x = torch.arange(16.).reshape(1, 1, 4, 4) / 10
print(conv(x))
print(nn.Conv2d(3, 6, (3, 5), stride=2, padding=1, dilation=2, groups=3, bias=False))
print(nn.Conv2d(2, 4, 3, padding="same", padding_mode="reflect"))
print(nn.Conv2d(2, 4, 3, padding="valid"))
print(nn.Conv2d(4, 8, kernel_size=1, stride=(1, 2), padding=(0, 1)))
print(nn.Conv1d(2, 4, 3, stride=2))
