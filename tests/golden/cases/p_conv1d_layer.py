# source: original
# topic: printing
# compare: exact
# visibility: public
# nn.Conv1d over a short signal: repr, initial weights, output and gradients.
import torch
import torch.nn as nn
import torch.nn.functional as F
torch.manual_seed(0)
conv = nn.Conv1d(2, 3, kernel_size=3, stride=2, padding=1)
print(conv)
print(conv.weight)
print(conv.bias)
x = torch.linspace(-1., 1., 14).reshape(1, 2, 7).requires_grad_()
y = conv(x)
print(y)
y.sum().backward()
print(x.grad)
print(conv.weight.grad)
print(conv.bias.grad)
print(F.conv1d(x[0], conv.weight, dilation=2))
print(nn.Conv1d(4, 4, 5, padding="same", groups=2, bias=False))
print(nn.Conv1d(1, 2, 2, padding=1, padding_mode="circular")(x[:, :1]).shape)
