# source: original
# topic: normalization
# compare: exact
# visibility: public
# nn.LayerNorm / F.layer_norm and nn.BatchNorm1d / F.batch_norm: reprs, parameters and
# buffers, forward values, the Native*NormBackward0 nodes and their saved statistics, input,
# weight and bias gradients, running statistics over a few training steps, then eval mode.
import torch
import torch.nn as nn
import torch.nn.functional as F

ln = nn.LayerNorm(4)
print(ln, nn.LayerNorm([2, 3], eps=1e-3, elementwise_affine=False), nn.LayerNorm(3, bias=False))
print(list(ln.state_dict().keys()), [n for n, _ in nn.LayerNorm(3, bias=False).named_parameters()])
with torch.no_grad():
    ln.weight.copy_(torch.tensor([1.0, 0.5, -2.0, 1.5]))
    ln.bias.copy_(torch.tensor([0.0, 0.1, 0.2, -0.3]))
x = torch.tensor([[1.0, 2.0, 4.0, 7.0], [0.0, -1.0, 3.0, 3.0], [0.5, 0.5, 0.5, 0.5]],
                 requires_grad=True)
y = ln(x)
print(y)
print(type(y.grad_fn).__name__, [type(f).__name__ for f, _ in y.grad_fn.next_functions])
print(y.grad_fn._saved_normalized_shape, y.grad_fn._saved_result1, y.grad_fn._saved_result2)
(y * torch.tensor([1.0, -1.0, 2.0, 0.5])).sum().backward()
print(x.grad)
print(ln.weight.grad, ln.bias.grad)

z = F.layer_norm(torch.arange(12.0).view(2, 2, 3), (2, 3))
print(z, z.grad_fn)
x3 = torch.tensor([[[1.0, -1.0], [2.0, 0.0]], [[3.0, 1.0], [0.5, 0.25]]], requires_grad=True)
F.layer_norm(x3, [2], eps=0.1).pow(2).sum().backward()
print(x3.grad)

bn = nn.BatchNorm1d(3)
print(bn, nn.BatchNorm1d(3, eps=1e-3, momentum=None, affine=False, track_running_stats=False))
print(list(bn.state_dict().keys()), bn.num_batches_tracked)
xb = torch.tensor([[1.0, 2.0, 3.0], [4.0, 0.0, -1.0], [2.0, 2.0, 2.0], [0.0, 1.0, 5.0]],
                  requires_grad=True)
yb = bn(xb)
print(yb)
print(type(yb.grad_fn).__name__, [type(f).__name__ for f, _ in yb.grad_fn.next_functions])
print(yb.grad_fn._saved_result1, yb.grad_fn._saved_result2, yb.grad_fn._saved_training,
      yb.grad_fn._saved_eps)
(yb * torch.tensor([1.0, 2.0, -1.0])).sum().backward()
print(xb.grad)
print(bn.weight.grad, bn.bias.grad)
for step in range(3):
    bn(xb * (step + 1))
print(bn.running_mean, bn.running_var, bn.num_batches_tracked)
bn.eval()
ye = bn(xb)
print(ye, type(ye.grad_fn).__name__)

avg = nn.BatchNorm1d(2, momentum=None, affine=False)
for scale in (1.0, 2.0, 3.0):
    avg(torch.tensor([[1.0, 0.0], [3.0, 2.0], [5.0, -2.0]]) * scale)
print(avg.running_mean, avg.running_var, avg.num_batches_tracked, avg.weight)
seq = torch.tensor([[[1.0, 2.0], [0.0, 1.0]], [[3.0, 0.0], [2.0, 2.0]]], requires_grad=True)
out = nn.BatchNorm1d(2)(seq)
out[:, 0].sum().backward()
print(out, seq.grad)
print(F.batch_norm(xb, torch.zeros(3), torch.ones(3)))
