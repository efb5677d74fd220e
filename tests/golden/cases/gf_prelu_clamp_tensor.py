# source: original
# topic: nn-functional
# compare: exact
# visibility: public
# nn.PReLU (its learnable weight and that weight's gradient), F.prelu / torch.prelu /
# Tensor.prelu with the nodes PyTorch records (the weight viewed to broadcast), and torch.clamp
# with tensor bounds: ClampBackward0, gradients to the bounds (also when min > max), and which
# overload a tensor next to a number picks.
import torch
import torch.nn as nn
import torch.nn.functional as F

def walk(fn, depth=0, out=None):
    out = [] if out is None else out
    if fn is None or depth > 5: return out
    out.append("  " * depth + type(fn).__name__ + str(len(fn.next_functions)))
    for f, _ in fn.next_functions: walk(f, depth + 1, out)
    return out

p = nn.PReLU()
print(p, p.weight, list(dict(p.named_parameters())))
p3 = nn.PReLU(3, init=0.1)
print(p3, p3.weight, p3.state_dict())
x = torch.tensor([[[1.0, -2.0], [-3.0, 4.0], [-1.0, -1.0]], [[0.0, 2.0], [-0.5, 1.0], [3.0, -2.0]]],
                 requires_grad=True)
y = p3(x)
print(y)
print("\n".join(walk(y.grad_fn)))
(y * torch.arange(12.0).view(2, 3, 2)).sum().backward()
print(p3.weight.grad, x.grad)
y = p(x)
y.sum().backward()
print(p.weight.grad)
m = nn.Sequential(nn.Linear(2, 3), nn.PReLU(3), nn.Linear(3, 1))
print(m)
print([n for n, _ in m.named_parameters()])
w = torch.tensor([0.25, -0.5], requires_grad=True)
z = torch.tensor([[-4.0, 0.5], [-3.0, 3.0], [0.0, -2.0]], requires_grad=True)
y = F.prelu(z, w)
print(y, y.grad_fn._saved_weight)
gz, gw = torch.autograd.grad((y * torch.arange(6.0).view(3, 2)).sum(), [z, w], create_graph=True)
print(gz, gw)
print("\n".join(walk(gz.grad_fn)))
print("\n".join(walk(gw.grad_fn)))
print(torch.prelu(z, w[:1]), z.prelu(w))
print(F.prelu(torch.tensor(-2.0), torch.tensor([0.5])))
for bad in [lambda: F.prelu(torch.ones(2, 3), torch.ones(2)),
            lambda: F.prelu(torch.ones(2, 3), torch.ones(1, 3)),
            lambda: F.prelu(torch.ones(3), torch.ones(2)),
            lambda: nn.PReLU(3)(torch.ones(2, 4)),
            lambda: F.prelu(torch.ones(2), torch.ones(1, dtype=torch.float64)),
            lambda: F.prelu(torch.tensor([1, 2]), torch.tensor([1]))]:
    try:
        bad()
    except Exception as e:
        print(type(e).__name__, e)

x = torch.tensor([[-4.0, -3.0, -1.5, 0.0], [0.5, 3.0, 4.0, 2.0]], requires_grad=True)
lo = torch.tensor([[0.25], [-0.5]], requires_grad=True)
hi = torch.tensor([1.0, 2.0, 3.0, 0.0], requires_grad=True)
y = torch.clamp(x, lo, hi)
print(y, [type(n).__name__ if n else None for n, _ in y.grad_fn.next_functions])
print(y.grad_fn._saved_min, y.grad_fn._saved_max)
(y * torch.arange(8.0).view(2, 4)).sum().backward()
print(x.grad, lo.grad, hi.grad)
x.grad = lo.grad = hi.grad = None
y = x.clamp(min=lo)
print(y, y.grad_fn.next_functions[2], y.grad_fn._saved_max)
y.sum().backward()
print(x.grad, lo.grad)
x.grad = None
y = x.clip(max=hi)
print(y)
y.sum().backward()
print(x.grad, hi.grad)
x.grad = hi.grad = None
y = torch.clamp(x, torch.tensor(-1.0), torch.tensor(2.0))
print(y)
y = torch.clamp(x, torch.tensor(-1.0), 2.0)
print(y)
y = torch.clamp(x, hi + 2, hi)       # min > max: every value is max, all gradient goes there
print(y)
y.sum().backward()
print(x.grad, hi.grad)
print(torch.clamp(torch.tensor([1, 5, 9]), torch.tensor([2.5]), torch.tensor(6)))
for bad in [lambda: torch.clamp(x, torch.ones(4), 2.0), lambda: x.clamp(1, torch.ones(4)),
            lambda: torch.clip(x, 1, hi), lambda: torch.clamp(x, torch.ones(3)),
            lambda: torch.clamp(x, torch.tensor(0.5, requires_grad=True), 2.0),
            lambda: torch.clamp(x, None, None)]:
    try:
        bad()
    except Exception as e:
        print(type(e).__name__, e)
