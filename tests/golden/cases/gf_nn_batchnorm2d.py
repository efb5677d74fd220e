# source: original
# topic: nn-norm
# compare: exact
# visibility: public
# nn.BatchNorm2d: reprs, parameters and buffers, training (batch statistics over N, H and W,
# running stats updated with momentum, or averaged with momentum=None), eval (running stats),
# affine=False, track_running_stats=False, the NativeBatchNormBackward0 node, gradients,
# state_dict keys, and PyTorch's errors for wrong ranks and sizes.
import torch
import torch.nn as nn

x = (torch.arange(24.0).view(2, 2, 3, 2) * 0.37).sin().requires_grad_()
g = torch.arange(24.0).view(2, 2, 3, 2) / 10
print(nn.BatchNorm2d(3))
print(nn.BatchNorm2d(4, eps=1e-3, momentum=None, affine=False, track_running_stats=False))
print(nn.BatchNorm2d(2, bias=False), nn.BatchNorm2d(2, momentum=0.5))
m = nn.BatchNorm2d(2)
print([n for n, _ in m.named_parameters()], [n for n, _ in m.named_buffers()])
print(list(m.state_dict().keys()))
y = m(x)
print(y)
fn = y.grad_fn
print(type(fn).__name__, [type(n).__name__ for n, _ in fn.next_functions])
print(fn._saved_training, fn._saved_eps, fn._saved_result1, fn._saved_result2)
print(m.running_mean, m.running_var, m.num_batches_tracked)
y.backward(g)
print(x.grad)
print(m.weight.grad, m.bias.grad)
y = m(x * 2 + 1)
print(m.running_mean, m.running_var, m.num_batches_tracked)
m.eval()
y = m(x)
print(y, type(y.grad_fn).__name__, y.grad_fn._saved_training)
print(m.running_mean, m.num_batches_tracked)
x.grad = None
y.backward(g)
print(x.grad)
c = nn.BatchNorm2d(2, momentum=None)
for k in range(3):
    c(x * (k + 1))
print(c.running_mean, c.running_var, c.num_batches_tracked)
a = nn.BatchNorm2d(2, affine=False)
y = a(x)
print(y[0, 0], type(y.grad_fn).__name__, [type(n).__name__ if n else None
                                           for n, _ in y.grad_fn.next_functions])
print(a.weight, a.bias, a.running_mean)
t = nn.BatchNorm2d(2, track_running_stats=False)
y = t(x)
print(y[1, 1], t.running_mean, t.num_batches_tracked)
t.eval()
print(t(x)[1, 1])
net = nn.Sequential(nn.BatchNorm2d(2), nn.ReLU())
print(net, net(x).shape)
with torch.no_grad():
    print(nn.BatchNorm2d(2)(x).requires_grad)
bad = [lambda: m(torch.ones(2, 2)), lambda: m(torch.ones(2, 2, 3)),
       lambda: nn.BatchNorm2d(3)(torch.ones(1, 2, 2, 2)),
       lambda: nn.BatchNorm2d(2)(torch.ones(1, 2, 1, 1)),
       lambda: nn.BatchNorm1d(2)(torch.ones(2, 2, 2, 2))]
for f in bad:
    try:
        f()
    except Exception as e:
        print(type(e).__name__, e)
