# Activations and losses printed to the last bit, in the order PyTorch's kernels round:
# silu x / (1 + exp(-x)) and its gradient with one fused multiply-add; softplus's gradient
# grad * e / (e + 1); elu's grad * alpha * exp(x); Huber and smooth L1 gradients scaled by
# 1 / numel (not divided by it); binary cross entropy as (t - 1) * log1p(-x) - t * log(x).
import torch
import torch.nn.functional as F

x = (((torch.arange(12.0) * 7) % 13 - 6) / 2.3).requires_grad_()
g = ((torch.arange(12.0) * 5) % 11 - 5) / 1.7
for f in (F.silu, F.softplus, F.elu):
    x.grad = None
    y = f(x)
    y.backward(g)
    if f is not F.softplus:     # (softplus's forward: 92% of values, log1p(exp) differs)
        print(y.tolist())
    print(x.grad.tolist())

t = ((torch.arange(12.0) * 3) % 7) / 2.9
for f in (F.huber_loss, F.smooth_l1_loss):
    x.grad = None
    loss = f(x, t)
    loss.backward()
    print(loss.item(), x.grad.tolist())

p = (((torch.arange(12.0) * 5) % 9) + 0.5) / 9.7
target = ((torch.arange(12.0) * 2) % 5) / 4.0
print(F.binary_cross_entropy(p, target).item())
print(F.binary_cross_entropy_with_logits(x.detach(), target).item())
print(F.binary_cross_entropy_with_logits(x.detach(), target, reduction="none").tolist())
