# source: original
# topic: errors
# compare: exact
# visibility: public
# unbind, split (and chunk) and split with sizes return views; made from a tensor that
# requires grad they refuse in-place writes in PyTorch's words, while without grad (or under
# no_grad) writes go through to the base. split([sizes]) is one SplitWithSizesBackward0 node.
import torch


def attempt(label, fn):
    try:
        fn()
        print(label, "ok")
    except RuntimeError as e:
        print(label, e)


x = torch.ones(4, requires_grad=True)
y = x * 2
attempt("unbind", lambda: y.unbind(0)[0].mul_(2))
attempt("split", lambda: y.split(2)[0].mul_(2))
attempt("chunk", lambda: y.chunk(2)[1].add_(1))
attempt("split sizes", lambda: y.split([1, 3])[0].mul_(2))
attempt("leaf unbind", lambda: x.unbind(0)[0].mul_(2))
a, b = y.split(2)


def write_first():
    a[0] = 5.0


attempt("setitem", write_first)
w = torch.ones(2, 3, requires_grad=True) * 1
attempt("unbind dim 1", lambda: w.unbind(1)[2].zero_())
attempt("chunk dim 1", lambda: w.chunk(3, dim=1)[2].zero_())
with torch.no_grad():
    y.unbind(0)[0].mul_(2)
print(y)
z = torch.ones(2, 2)
z.unbind(0)[0].mul_(2)
z.split([1, 1], dim=1)[1].add_(5)
print(z, z.unbind()[0]._base is z)

v = torch.arange(6.0).requires_grad_() * 2
p, q, r = v.split([1, 3, 2])
print(p, q, r)
print(p.grad_fn, p.grad_fn._saved_split_sizes, p.grad_fn._saved_dim,
      p.grad_fn._saved_self_sym_sizes)
m = torch.arange(12.0).reshape(3, 4).requires_grad_()
s, t = m.split([3, 1], dim=1)
(s * t).sum().backward()
print(m.grad)
try:
    torch.ones(4).split([1, 2])
except RuntimeError as e:
    print(e)
