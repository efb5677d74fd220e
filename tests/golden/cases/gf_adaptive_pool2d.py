# source: original
# topic: grad_fn
# compare: exact
# visibility: public
# Adaptive pooling, as CNN tutorials use it before the classifier: grad_fn, saves, gradients.
import torch
import torch.nn as nn
import torch.nn.functional as F

x = ((torch.arange(2 * 5 * 7) % 11) * 0.25 - 1).reshape(1, 2, 5, 7).requires_grad_()
a = F.adaptive_avg_pool2d(x, (2, 3))     # windows of different sizes that overlap
print(a)
print(a.grad_fn.name(), a.grad_fn._saved_self is x, a.grad_fn.next_functions)
(a * torch.arange(12.).reshape(1, 2, 2, 3)).sum().backward()
print(x.grad)
x.grad = None
m, idx = F.adaptive_max_pool2d(x, (3, 2), return_indices=True)
print(m, idx)
g = m.grad_fn
print(g.name(), g._saved_result1.shape, g._saved_self is x, torch.equal(g._saved_result1, idx))
m.sum().backward()
print(x.grad)
x.grad = None
# a 1x1 output is a mean over the last two dims in PyTorch
gap = nn.AdaptiveAvgPool2d((1, 1))
y = gap(x)
print(y, y.grad_fn.name(), y.grad_fn._saved_dim, y.grad_fn._saved_keepdim)
print(F.adaptive_avg_pool2d(x[0], 1).shape, F.adaptive_max_pool2d(x, 1).grad_fn.name())
print(F.adaptive_avg_pool2d(x, (None, 2)).shape, nn.AdaptiveMaxPool2d((4, None))(x).shape)
# output larger than the input repeats positions
print(F.adaptive_avg_pool2d(x[:, :1, :2, :3], (3, 4)))
print(nn.AdaptiveAvgPool2d(1), nn.AdaptiveAvgPool2d((None, 7)), nn.AdaptiveMaxPool2d([2, 2], True))


class TinyNet(nn.Module):
    def __init__(self):
        super().__init__()
        self.conv = nn.Conv2d(2, 3, 3, padding=1)
        self.pool = nn.AdaptiveAvgPool2d((2, 2))
        self.fc = nn.Linear(12, 2)

    def forward(self, x):
        return self.fc(torch.flatten(self.pool(torch.relu(self.conv(x))), 1))


torch.manual_seed(0)
net = TinyNet()
print(net)
out = net(x)
print(out.shape, out.grad_fn.name())
out.sum().backward()
print(net.conv.weight.grad.shape, round(net.conv.weight.grad.abs().sum().item(), 3))
