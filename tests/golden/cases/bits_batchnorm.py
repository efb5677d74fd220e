# source: original
# topic: nn-norm
# compare: exact
# visibility: public
# nn.BatchNorm2d (and BatchNorm1d on 3-D input) to the last bit, float32: the batch
# statistics (each channel summed in order in double), the running mean and variance after a
# few steps, the training and eval outputs (x * alpha + beta, fused), and the gradients of
# input, weight and bias in training and in eval (PyTorch's 8-lane plane sums).
import torch
import torch.nn as nn


def data(n, scale, shift, *shape):
    # exactly rounded arithmetic only (no random or transcendental functions), so that the
    # batch norm alone decides the bits
    return ((torch.arange(float(n)) * scale) % 7.0 - 3.0 + shift).view(*shape)


m = nn.BatchNorm2d(3, momentum=0.3)
with torch.no_grad():
    m.weight.copy_(torch.tensor([0.5, 1.5, -2.0]))
    m.bias.copy_(torch.tensor([0.1, -0.2, 0.3]))
for step in range(3):
    x = (data(300, 0.731 * (step + 1), 0.7, 4, 3, 5, 5) * (step + 1)).requires_grad_()
    y = m(x)
    print(y.flatten().tolist()[::7])
    print(m.running_mean.tolist(), m.running_var.tolist())
    y.backward(data(300, 1.37, -0.2, 4, 3, 5, 5) / (step + 3))
    print(x.grad.flatten().tolist()[::5])
    print(m.weight.grad.tolist(), m.bias.grad.tolist())
    m.zero_grad()
m.eval()
y = m(x)
print(y.flatten().tolist()[::5])
y.backward(data(300, 0.91, 0.1, 4, 3, 5, 5))
print(x.grad.flatten().tolist()[::9], m.weight.grad.tolist())
a = nn.BatchNorm2d(3, affine=False, momentum=None)
print(a(x).flatten().tolist()[::9], a.running_var.tolist())
b = nn.BatchNorm1d(2)
z = (data(78, 0.613, 0.0, 3, 2, 13) * 2).requires_grad_()
out = b(z)
out.backward(data(78, 1.117, 0.5, 3, 2, 13))
print(out.flatten().tolist()[::4], z.grad.flatten().tolist()[::4], b.weight.grad.tolist())
