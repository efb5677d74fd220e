# Values PyTorch's formulas round in their own order, printed to the last bit: x ** 3 is
# x * x * x, x ** 1.5 one powf, div's gradient for the divisor -grad * ((a / b) / b), prod's
# grad * (result / x), norm's grad * (x / norm); losses reduce with PyTorch's sum; and a
# gradient that is zero (sign, clamp, maximum, max, nll_loss) is +0.0, never -0.0.
import torch

x = (torch.arange(1.0, 8.0) / 2.9).requires_grad_()
g = torch.arange(-3.0, 4.0) / 1.7
print((x ** 3).tolist(), (x ** 1.5).tolist(), (x ** -0.5).tolist())
print((2.718281828459045 ** x).tolist())
(x ** 2.5).backward(g)
print(x.grad.tolist())

a = (torch.arange(-3.0, 4.0) / 1.3).requires_grad_()
b = (torch.arange(1.0, 8.0) / 3.1).requires_grad_()
(a / b).backward(g)
print(a.grad.tolist(), b.grad.tolist())

for f in (lambda t: t.prod(), lambda t: t.norm(), lambda t: t.norm(p=3), lambda t: t.rsqrt()):
    x.grad = None
    f(x).backward(g[0] if f(x).dim() == 0 else g)
    print(x.grad.tolist())

t = torch.arange(7.0) / 2.3
print(torch.nn.functional.mse_loss(a, t).item(), torch.nn.functional.mse_loss(a, t, reduction="sum").item())

for f in (torch.sign, torch.floor, lambda t: t.clamp(-1.0, 1.0), lambda t: torch.maximum(t, b),
          lambda t: torch.minimum(t, b), lambda t: torch.where(t > 0, t, b)):
    a.grad = None
    f(a).backward(g)
    print(a.grad.tolist())
a.grad = None
a.max().backward(torch.tensor(-1.5))
print(a.grad.tolist())
m = (torch.arange(-6.0, 6.0) / 4.1).reshape(3, 4).requires_grad_()
m.max(1).values.backward(torch.tensor([-1.0, 2.0, -3.0]))
print(m.grad.tolist())
m.grad = None
torch.nn.functional.nll_loss(m, torch.tensor([1, 0, 3])).backward(torch.tensor(-2.0))
print(m.grad.tolist())

# add and sub with alpha are one fused multiply-add: a + alpha * b rounded once
p = torch.arange(-6.0, 6.0).reshape(3, 4) / 1.9
q = torch.arange(12.0).reshape(3, 4) / 2.3
print(torch.add(p, q, alpha=0.3).tolist())
print(torch.sub(p, q[0], alpha=0.7).tolist())
