# source: original
# topic: nn-functional
# compare: exact
# visibility: public
# F.logsigmoid and F.hardtanh, nn.LogSigmoid and nn.Hardtanh: values, grad_fn names, saved
# attributes, module reprs and PyTorch's errors.
import torch
import torch.nn as nn
import torch.nn.functional as F

x = torch.tensor([[0.5, -1.3, 2.0], [-30.0, 0.0, 25.0]], requires_grad=True)
y = F.logsigmoid(x)
print(y)
print(y.grad_fn._saved_self.shape, y.grad_fn._saved_buffer)
y.sum().backward()
print(x.grad)
x.grad = None
h = F.hardtanh(x, -0.5, 1.0)
print(h, h.grad_fn._saved_min_val, h.grad_fn._saved_max_val)
(h * torch.arange(6.0).view(2, 3)).sum().backward()
print(x.grad)
print(F.hardtanh(torch.tensor([1, -3, 0, 2])))
print(nn.LogSigmoid(), nn.Hardtanh(), nn.Hardtanh(-2, 3), nn.Hardtanh(0.0, 6.0, inplace=False))
m = nn.Sequential(nn.Linear(2, 2), nn.Hardtanh(), nn.LogSigmoid())
print(m)
with torch.no_grad():
    m[0].weight.copy_(torch.tensor([[1.0, -2.0], [0.5, 0.25]]))
    m[0].bias.fill_(0.1)
out = m(torch.tensor([[1.0, 2.0], [-0.5, 0.3]]))
print(out)
out.mean().backward()
print(m[0].weight.grad)
for bad in (lambda: F.hardtanh(x, 2.0, 1.0), lambda: F.logsigmoid(torch.tensor([1, 2]))):
    try:
        bad()
    except Exception as e:
        print(type(e).__name__, e)
