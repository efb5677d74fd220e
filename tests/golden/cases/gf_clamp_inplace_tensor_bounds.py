# source: original
# topic: clamp
# compare: exact
# visibility: public
# clamp_ and clip_ (the methods and torch.clamp_/clip_) with tensor bounds, in place on a
# non-leaf: the node is ClampBackward0 with edges to self, min and max (None for an absent
# bound), and the gradient goes to the bound that won; number bounds stay ClampBackward1.
# Broadcast bounds, bounds crossing (min > max), no_grad, and PyTorch's refusals.
import torch

x = torch.tensor([[-2.0, 0.5, 3.0], [1.0, -1.0, 0.0]], requires_grad=True)
lo = torch.tensor([-1.0, 1.0, 0.0], requires_grad=True)
hi = torch.tensor([[1.0], [2.5]], requires_grad=True)
g = torch.tensor([[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]])
cases = [("clamp_", lambda t: t.clamp_(lo, hi)), ("clamp_ min", lambda t: t.clamp_(min=lo)),
         ("clamp_ max", lambda t: t.clamp_(max=hi)), ("clip_", lambda t: t.clip_(lo, hi)),
         ("torch.clamp_", lambda t: torch.clamp_(t, lo, hi)),
         ("torch.clip_", lambda t: torch.clip_(t, max=hi)),
         ("crossed", lambda t: t.clamp_(hi + 1, lo)),
         ("0-d bound", lambda t: t.clamp_(torch.tensor(0.25, requires_grad=True), hi)),
         ("numbers", lambda t: t.clamp_(-1, 1)), ("clip_ numbers", lambda t: t.clip_(max=0.5))]
for name, f in cases:
    y = x * 1
    z = f(y)
    fn = z.grad_fn
    print(name, z is y, y._version, z)
    print(type(fn).__name__, [type(n).__name__ if n is not None else None
                              for n, _ in fn.next_functions])
    z.backward(g)
    print(x.grad, lo.grad, hi.grad)
    x.grad = lo.grad = hi.grad = None
y = x * 1
y.clamp_(lo, hi)
print(y.grad_fn._saved_min, y.grad_fn._saved_max)
print(y.grad_fn._saved_self)
w = torch.tensor([[-2.0, 0.5, 3.0], [1.0, -1.0, 0.0]])
w.clamp_(lo, hi)
print(w, w.requires_grad, type(w.grad_fn).__name__)
w = torch.tensor([[-2.0, 0.5, 3.0], [1.0, -1.0, 0.0]])
w.clamp_(lo.detach(), hi.detach())
print(w, w.requires_grad, w.grad_fn)
with torch.no_grad():
    w = x * 1
    print(w.clip_(lo, hi), w.requires_grad)
i = torch.tensor([5, -5, 0])
print(i.clamp_(torch.tensor([-1, -1, -1]), torch.tensor([1, 1, 1])), i.dtype)
y = x * 1
(gl,) = torch.autograd.grad(y.clamp_(lo, hi).sum(), lo, create_graph=True)
print(gl)
bad = [lambda: x.clamp_(lo, hi), lambda: torch.ones(2).clamp_(torch.zeros(3), None),
       lambda: torch.ones(2).clamp_(torch.zeros(2, 2)),
       lambda: torch.tensor([1, 2]).clamp_(torch.tensor([0.5, 0.5])),
       lambda: torch.ones(2).clamp_(), lambda: torch.ones(2).clamp_(torch.ones(2), 1.0),
       lambda: torch.ones(2).clip_(torch.ones(2), 1.0),
       lambda: torch.clamp_(torch.ones(2), torch.ones(2), 1.0)]
for f in bad:
    try:
        print(f())
    except Exception as e:
        print(type(e).__name__, e)
