# source: original
# topic: torch.deg2rad / rad2deg (Deg2RadBackward0 / Rad2DegBackward0), torch.frac
#   (FracBackward0), torch.fix (trunc's TruncBackward0), torch.sinc (SincBackward0),
#   torch.logit with and without eps (LogitBackward0), torch.nan_to_num (NanToNumBackward0):
#   values, gradients, saved values, integer inputs and errors
# compare: exact
# visibility: public
import torch
x = torch.tensor([-2.75, -0.5, 0.0, 0.3, 1.0, 4.6], requires_grad=True)
for f in [torch.deg2rad, torch.rad2deg, torch.frac, torch.fix, torch.sinc]:
    x.grad = None
    y = f(x)
    y.backward(torch.arange(1.0, 7.0))
    print(f.__name__, y, x.grad)
print(x.deg2rad().equal(torch.deg2rad(x)), x.frac().grad_fn.name(), x.fix().grad_fn.name(),
      x.sinc().grad_fn.name())
print(torch.deg2rad(torch.tensor([180, 90])), torch.rad2deg(torch.tensor([1, 2])),
      torch.sinc(torch.tensor([0, 1, 2])), torch.fix(torch.tensor([3, -3])))
g, = torch.autograd.grad(torch.sinc(x).sum(), x, create_graph=True)
print(g, g.grad_fn.name())
print(torch.sinc(x).grad_fn._saved_self is x)
p = torch.tensor([0.0, 0.05, 0.25, 0.5, 0.9, 1.0], requires_grad=True)
for eps in (None, 0.1):
    p.grad = None
    y = torch.logit(p, eps=eps)
    print(y, y.grad_fn._saved_eps, y.grad_fn._saved_self is p)
    y.sum().backward()
    print(p.grad)
print(p.logit(0.2), torch.logit(torch.tensor([1, 0])), torch.logit(p.double(), 1e-6))
print(torch.logit(torch.tensor([-0.5, 1.5]), eps=0.1), torch.logit(torch.tensor([-0.5, 1.5])))
q = torch.tensor([float("nan"), float("inf"), -float("inf"), 2.5], requires_grad=True)
n = torch.nan_to_num(q)
print(n, n.grad_fn._saved_self is q)
n.backward(torch.tensor([1.0, 2.0, 3.0, 4.0]))
print(q.grad)
print(q.nan_to_num(nan=1.5, posinf=9.0, neginf=-9.0), torch.nan_to_num(q.double(), neginf=0.0))
print(torch.nan_to_num(torch.tensor([1, 2])), torch.nan_to_num(q, 0.0, 1e3))
for f in [lambda: torch.frac(torch.tensor([1, 2])), lambda: torch.sinc(2.0),
          lambda: torch.deg2rad([180.0])]:
    try:
        f()
    except (TypeError, NotImplementedError) as e:
        print(type(e).__name__, e)
