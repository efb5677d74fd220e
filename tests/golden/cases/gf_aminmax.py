# source: original
# topic: torch.aminmax / Tensor.aminmax: the (min, max) named tuple, one AminmaxBackward0 node
#   for both outputs (saved dim, keepdim, min, max, self), ties sharing the gradient, integer
#   and 0-d inputs, and its errors
# compare: exact
# visibility: public
import torch
a = torch.tensor([[1.0, 5.0, 5.0], [2.0, -1.0, 0.0]], requires_grad=True)
r = torch.aminmax(a)
print(r, type(r), r.min.grad_fn is r.max.grad_fn, len(r.max.grad_fn.next_functions))
fn = r.min.grad_fn
print(fn._saved_dim, fn._saved_keepdim, fn._saved_self is a, fn._saved_min, fn._saved_max)
(r.min + r.max).backward()
print(a.grad)
a.grad = None
lo, hi = torch.aminmax(a, dim=1, keepdim=True)
print(lo, hi, lo.grad_fn._saved_dim)
(lo * 2 + hi).sum().backward()
print(a.grad)
a.grad = None
r = a.aminmax(dim=-1)
print(r, r.min.grad_fn._saved_dim, len(r), r[1].equal(r.max))
r.max.sum().backward()
print(a.grad)
a.grad = None
torch.aminmax(a, dim=0).min.sum().backward()
print(a.grad)
print(torch.aminmax(torch.tensor([3, 1, 2])), torch.aminmax(torch.tensor(2.0), dim=0),
      torch.aminmax(torch.tensor([True, False])))
for f in [lambda: torch.aminmax(torch.tensor([])), lambda: torch.aminmax(a, dim=2),
          lambda: torch.aminmax(torch.ones(0, 2), dim=0)]:
    try:
        f()
    except (RuntimeError, IndexError, TypeError) as e:
        print(type(e).__name__, e)
