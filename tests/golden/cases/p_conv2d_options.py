# source: original
# topic: printing
# compare: exact
# visibility: public
# F.conv2d with stride, padding, dilation, groups and padding='same', batched and unbatched.
import torch
import torch.nn.functional as F
torch.manual_seed(0)
x = torch.randn(2, 4, 5, 5)
w = torch.randn(2, 2, 3, 3) / 4
b = torch.tensor([0.5, -0.5])
print(F.conv2d(x, w, b, stride=2, padding=1, groups=2))
print(F.conv2d(x[:, :2], w, dilation=2, padding=(2, 1)).shape)
print(F.conv2d(x[:1, :2], w, padding="same")[0, 0])
print(F.conv2d(x[0, :2], w, b, padding="valid"))
print(F.conv2d(x[:1, :2], w[:, :, :2, :2], padding="same").shape)
