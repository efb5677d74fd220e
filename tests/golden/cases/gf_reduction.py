# source: original
# topic: grad-fn
# compare: exact
# visibility: public
# The grad_fn class of reductions, over everything and over a dim, with keepdim.
import torch


def names(t):
    return [(None if f is None else type(f).__name__, i) for f, i in t.grad_fn.next_functions]


x = torch.tensor([[1.0, 4.0, 2.0], [3.0, 0.5, 6.0]], requires_grad=True)
for label, y in [("sum", x.sum()), ("torch.sum", torch.sum(x)), ("sum 0", x.sum(0)),
                 ("sum dim=1", x.sum(dim=1)), ("sum keepdim", x.sum(1, keepdim=True)),
                 ("mean", x.mean()), ("mean 0", x.mean(0)),
                 ("mean keepdim", x.mean(dim=1, keepdim=True)), ("torch.mean", torch.mean(x)),
                 ("max", x.max()), ("min", x.min()), ("max 1", x.max(1).values),
                 ("min 0", x.min(dim=0).values), ("torch.max", torch.max(x)),
                 ("norm", x.norm()), ("torch.norm", torch.norm(x)),
                 ("prod", x.prod()), ("prod 1", x.prod(1))]:
    print(label, type(y.grad_fn).__name__, names(y))
    print(" ", y)
values, indices = x.max(dim=1)
print(values, indices)
print(x.max(dim=0, keepdim=True))
print(torch.max(x, 1))
