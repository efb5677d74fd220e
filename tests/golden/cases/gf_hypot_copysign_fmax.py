# source: original
# topic: torch.hypot (HypotBackward0), torch.copysign (CopysignBackward0 / 1 for a number),
#   torch.fmax / torch.fmin (nan ignored; FmaxBackward0 / FminBackward0): values, broadcasting,
#   gradients, saved tensors, dtypes and errors
# compare: exact
# visibility: public
import torch
a = torch.tensor([[3.0, -0.7, 0.0], [1.3, 2.9, -5.1]], requires_grad=True)
b = torch.tensor([4.0, 2.2, -1.5], requires_grad=True)
h = torch.hypot(a, b)
print(h)
print(h.grad_fn._saved_self is a, h.grad_fn._saved_other is b, h.grad_fn._saved_result.equal(h))
h.sum().backward()
print(a.grad, b.grad)
print(a.hypot(b).sub(h).abs().max().item(), torch.hypot(a, b.double()).dtype)
print(torch.tensor([1e-3, 0.1, 7.0]).hypot(torch.tensor([2.5e-3, 0.3, 11.0])).tolist())
a.grad = b.grad = None
c = torch.copysign(a, b)
print(c, c.grad_fn.name(), c.grad_fn._saved_self is a, c.grad_fn._saved_result.equal(c))
c.sum().backward()
print(a.grad, b.grad)
a.grad = None
d = a.copysign(-2.0)
print(d)
d.sum().backward()
print(a.grad)
print(torch.copysign(torch.tensor([1, -2, 3]), torch.tensor([-1, 0, -3])))
print(torch.copysign(torch.tensor([1.0, 2.0]), torch.tensor([-0.0, float("nan")])))
x = torch.tensor([1.0, float("nan"), 3.0, float("nan"), 2.0], requires_grad=True)
y = torch.tensor([2.0, 5.0, float("nan"), float("nan"), 2.0], requires_grad=True)
for f in (torch.fmax, torch.fmin):
    x.grad = y.grad = None
    out = f(x, y)
    out.sum().backward()
    print(out, x.grad, y.grad)
print(torch.fmax(torch.tensor([1, 5]), torch.tensor([3, 2])), x.fmin(y))
z = torch.tensor([[0.5], [-1.0]], requires_grad=True)
m = torch.fmax(z, torch.tensor([0.0, 1.0, -2.0]))
m.backward(torch.ones(2, 3))
print(m, z.grad)
for f in [lambda: torch.hypot(torch.tensor([1, 2]), torch.tensor([3, 4])),
          lambda: torch.hypot(a, 2.0), lambda: a.fmax(1.0), lambda: torch.fmin(a, [1.0]),
          lambda: torch.hypot(a, torch.ones(4))]:
    try:
        f()
    except (RuntimeError, TypeError, NotImplementedError) as e:
        print(type(e).__name__, e)
