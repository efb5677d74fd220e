# source: original
# topic: grad-fn
# compare: exact
# visibility: public
# cat, stack, where, softmax and log_softmax.
import torch


def names(t):
    return [(None if f is None else type(f).__name__, i) for f, i in t.grad_fn.next_functions]


a = torch.tensor([1.0, 2.0], requires_grad=True)
b = torch.tensor([3.0, 4.0], requires_grad=True)
c = torch.tensor([5.0, 6.0])
for label, y in [("cat", torch.cat([a, b])), ("cat const", torch.cat((a, c))),
                 ("cat dim 0", torch.cat([a.unsqueeze(0), b.unsqueeze(0)], dim=0)),
                 ("stack", torch.stack([a, b])), ("stack dim 1", torch.stack([a, c], dim=1)),
                 ("where", torch.where(a > 1.5, a, b)),
                 ("where scalar", torch.where(a > 1.5, a, 0.0)),
                 ("softmax", torch.softmax(a, dim=0)), ("softmax method", a.softmax(0)),
                 ("log_softmax", torch.log_softmax(a, dim=0)),
                 ("log_softmax method", a.log_softmax(dim=-1))]:
    print(label, type(y.grad_fn).__name__, names(y))
    print(" ", y)
