# source: original
# topic: grad-fn
# compare: exact
# visibility: public
# matmul picks mm, mv or dot by the shapes; @ is matmul.
import torch


def names(t):
    return [(None if f is None else type(f).__name__, i) for f, i in t.grad_fn.next_functions]


a = torch.tensor([[1.0, 2.0], [3.0, 4.0]], requires_grad=True)
b = torch.tensor([[0.5, -1.0], [2.0, 1.0]], requires_grad=True)
v = torch.tensor([1.0, -1.0], requires_grad=True)
for label, y in [("a @ b", a @ b), ("matmul", torch.matmul(a, b)), ("mm", torch.mm(a, b)),
                 ("a.mm", a.mm(b)), ("a @ v", a @ v), ("mv", torch.mv(a, v)),
                 ("v @ v", v @ v), ("dot", torch.dot(v, v)), ("v.dot", v.dot(v)),
                 ("v @ a", v @ a), ("a.matmul", a.matmul(v))]:
    print(label, type(y.grad_fn).__name__, names(y))
    print(" ", y)
