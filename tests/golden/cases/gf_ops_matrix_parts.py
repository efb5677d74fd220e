# source: original
# topic: grad-fn
# compare: exact
# visibility: public
# tril, triu, diag, diagonal, trace, roll, movedim, tile, hstack, vstack, masked_fill, nonzero,
# Tensor.outer and cross: printed results, grad_fn and next_functions, gradients.
import torch


def names(t):
    return [(None if f is None else type(f).__name__, i) for f, i in t.grad_fn.next_functions]


A = torch.tensor([[1.0, 2.0, 3.0], [4.0, 5.0, 6.0], [7.0, 8.0, 9.0]], requires_grad=True)
g = torch.tensor([[1.0, -1.0, 2.0], [0.5, 3.0, -2.0], [4.0, 1.0, 1.0]])
for label, fn in [("tril", lambda a: a.tril()), ("triu 1", lambda a: torch.triu(a, 1)),
                  ("tril -1", lambda a: torch.tril(a, diagonal=-1)),
                  ("roll", lambda a: a.roll(1, 0)), ("roll flat", lambda a: torch.roll(a, -2)),
                  ("roll 2 dims", lambda a: a.roll((1, -1), (0, 1))),
                  ("movedim", lambda a: torch.movedim(a, 0, 1)),
                  ("masked_fill", lambda a: torch.masked_fill(a, a > 4, -1.0))]:
    A.grad = None
    y = fn(A)
    print(label, y, names(y))
    y.backward(g)
    print(" grad", A.grad)

for label, fn in [("diag", lambda a: torch.diag(a)), ("diag 1", lambda a: a.diag(1)),
                  ("diagonal", lambda a: a.diagonal()),
                  ("diagonal -1", lambda a: torch.diagonal(a, -1)),
                  ("trace", lambda a: a.trace())]:
    A.grad = None
    y = fn(A)
    print(label, y, names(y))
    (y * torch.arange(1.0, y.numel() + 1).reshape(y.shape)).sum().backward()
    print(" grad", A.grad)

x = torch.tensor([1.0, -2.0, 3.0], requires_grad=True)
w = torch.tensor([0.5, 4.0], requires_grad=True)
for label, y in [("diag vec", torch.diag(x)), ("diag vec -1", x.diag(-1)),
                 ("outer", x.outer(w)), ("tile", x.tile((2,))), ("tile 2d", torch.tile(x, (2, 2))),
                 ("hstack", torch.hstack([x, w])), ("vstack", torch.vstack([x, x * 2])),
                 ("hstack 2d", torch.hstack([A, x.unsqueeze(1)])),
                 ("vstack 2d", torch.vstack((A, x))), ("roll vec", x.roll(1))]:
    x.grad = w.grad = None
    print(label, y, names(y))
    (y * y).sum().backward()
    print(" grads", x.grad, w.grad)

T = torch.arange(24.0).reshape(2, 3, 4).requires_grad_()
print(torch.moveaxis(T, 0, -1).shape, T.movedim((0, 1), (2, 0)).shape, T.diagonal(0, 1, 2).shape)
print(T.diagonal(1, -1, 0))
print(torch.tile(T, (2,)).shape, T.tile(2, 1, 1, 1).shape)

a = torch.tensor([[1.0, 0.0, 0.0], [0.0, 2.0, 1.0]], requires_grad=True)
b = torch.tensor([[0.0, 1.0, 0.0], [3.0, -1.0, 2.0]], requires_grad=True)
c = torch.cross(a, b, dim=1)
print(c, names(c))
c.backward(torch.tensor([[1.0, 2.0, 3.0], [-1.0, 0.5, 2.0]]))
print(a.grad, b.grad, sep="\n")
print(torch.linalg.cross(a, b), a.cross(b, dim=-1))

print(torch.nonzero(A > 4), (A > 4).nonzero(as_tuple=True))
print(torch.nonzero(torch.tensor([0.0, 1.5, 0.0, -2.0])), torch.nonzero(torch.tensor(3.0)))
print(torch.nonzero(torch.tensor([0, 0])), torch.nonzero(x, as_tuple=True))
print(torch.tril(torch.tensor([[1, 2], [3, 4]])), torch.tensor([[1, 2], [3, 4]]).trace())
