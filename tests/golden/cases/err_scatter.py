# source: original
# topic: errors
# compare: exact
# visibility: public
# scatter / scatter_add misuse, caught and printed as "Type message".
import torch


def attempt(label, fn):
    try:
        print(label, fn())
    except Exception as e:
        print(label, type(e).__name__, e)


x = torch.zeros(2, 3)
src = torch.ones(2, 3)
attempt("float index", lambda: x.scatter_add(0, torch.tensor([[0., 1.]]), src))
attempt("int32 index", lambda: x.scatter_add(0, torch.tensor([[1, 0]], dtype=torch.int32), src))
attempt("dtypes", lambda: x.scatter_add(0, torch.tensor([[0, 1]]), src.double()))
attempt("long into float", lambda: x.scatter(0, torch.tensor([[0, 1]]), torch.ones(2, 2).long()))
attempt("index dims", lambda: x.scatter_add(0, torch.tensor([0, 1]), src))
attempt("src dims", lambda: x.scatter(0, torch.tensor([[0, 1]]), torch.ones(2, 2, 2)))
attempt("src 1-d", lambda: x.scatter_add(0, torch.tensor([[0, 1]]), torch.ones(2)))
attempt("src 0-d", lambda: x.scatter(0, torch.tensor([[0, 1]]), torch.tensor(1.)))
attempt("too wide", lambda: x.scatter_add(0, torch.tensor([[0, 1, 0, 1]]), src))
attempt("too wide value", lambda: x.scatter(0, torch.tensor([[0, 1, 0, 1]]), 1.0))
attempt("out of bounds", lambda: x.scatter_add(0, torch.tensor([[0, 2, 0]]), src))
attempt("negative", lambda: x.scatter(1, torch.tensor([[0, -1]]), src))
attempt("dim", lambda: x.scatter_add(2, torch.tensor([[0, 1]]), src))
attempt("reduce name", lambda: x.scatter(0, torch.tensor([[0, 1]]), 2.0, reduce="sum"))
attempt("empty index", lambda: x.scatter_add(0, torch.zeros(0, 3, dtype=torch.long), src))
leaf = torch.zeros(3, requires_grad=True)
attempt("leaf in place", lambda: leaf.scatter_(0, torch.tensor([0]), 1.0))
s = torch.ones(2, requires_grad=True)
r = torch.zeros(3).scatter(0, torch.tensor([0, 2]), s * 1, reduce="add")
print(r, r.grad_fn.name())
attempt("reduce backward", lambda: r.sum().backward())
base = torch.zeros(2, 3, requires_grad=True)
small = base.scatter(1, torch.tensor([[2], [0]]), src.requires_grad_())
print(small)
attempt("index smaller than src, backward", lambda: small.sum().backward())
added = base.scatter_add(0, torch.tensor([[1, 1, 1]]), src)
attempt("scatter_add backward", lambda: added.sum().backward())
