# source: original
# topic: grad-fn
# compare: exact
# visibility: public
# Indexing and slicing: select, slice, advanced indexing, masks.
import torch


def names(t):
    return [(None if f is None else type(f).__name__, i) for f, i in t.grad_fn.next_functions]


x = torch.tensor([[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]], requires_grad=True)
for label, y in [("x[0]", x[0]), ("x[1, 2]", x[1, 2]), ("x[:, 1]", x[:, 1]),
                 ("x[0, 1:]", x[0, 1:]), ("x[:1]", x[:1]), ("x[..., -1]", x[..., -1]),
                 ("x[[0, 1], [2, 0]]", x[[0, 1], [2, 0]]), ("x[x > 2]", x[x > 2]),
                 ("x[None]", x[None]), ("x[:, ::2]", x[:, ::2])]:
    print(label, type(y.grad_fn).__name__, names(y))
    print(" ", y)
