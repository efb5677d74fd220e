# source: original
# topic: grids and contractions
# compare: exact
# visibility: public
# torch.meshgrid ("ij", "xy", no indexing: PyTorch's one-time warning), cartesian_prod and
# tensordot (int dims, dim lists, a permuted contraction, vectors), their grad_fn chains,
# gradients and errors.
import torch

a = torch.tensor([1.0, 2.0, 3.0], requires_grad=True)
b = torch.tensor([4.0, 5.0], requires_grad=True)
X, Y = torch.meshgrid(a, b, indexing="ij")
print(X, Y.grad_fn, Y.grad_fn.next_functions[0][0])
Xs, Ys = torch.meshgrid(a, b, indexing="xy")
print(Xs.shape, Ys)
loss = (X * Y + Xs.T ** 2).sum()
loss.backward()
print(a.grad, b.grad)
P, Q = torch.meshgrid(a, b)
print(P.shape, torch.meshgrid([a], indexing="ij"), torch.meshgrid(torch.tensor(2.0), a, indexing="xy")[0].shape)
for args, kwargs in [((a, torch.tensor([1, 2])), {"indexing": "ij"}), ((a, b), {"indexing": "yx"}),
                     ((), {"indexing": "ij"})]:
    try:
        torch.meshgrid(*args, **kwargs)
    except RuntimeError as exc:
        print("RuntimeError", exc)
c = torch.cartesian_prod(a, b)
print(c, c.grad_fn.next_functions[0][0], c.grad_fn.next_functions[0][0].next_functions[0][0])
print(torch.cartesian_prod(a) is a, torch.cartesian_prod(a, b, torch.tensor([0.0, 1.0])).shape)
try:
    torch.cartesian_prod(torch.ones(2, 2))
except RuntimeError as exc:
    print("RuntimeError", exc)
m = torch.arange(6.0).reshape(2, 3).requires_grad_()
n = torch.arange(12.0).reshape(3, 4).requires_grad_()
t = torch.tensordot(m, n, dims=1)
print(t, t.grad_fn.next_functions[0][0], t.grad_fn.next_functions[0][0].next_functions)
x = torch.arange(24.0).reshape(2, 3, 4).requires_grad_()
y = torch.arange(60.0).reshape(3, 4, 5) / 10
t2 = torch.tensordot(x, y, dims=([1, 2], [0, 1]))
t3 = torch.tensordot(x, y.permute(1, 0, 2), dims=([2, 1], [0, 1]))
print(t2, torch.equal(t2, t3), t3.grad_fn.next_functions[0][0].next_functions[0][0])
(t2.sum() + t3.sum() + t.sum()).backward()
print(x.grad[1], m.grad, n.grad)
print(torch.tensordot(m, n, dims=0).shape, torch.tensordot(torch.tensor([1.0, 2.0]), torch.tensor([3.0, 4.0]), dims=1))
print(torch.tensordot(x, y, dims=torch.tensor([[1, 2], [0, 1]])).shape, torch.tensordot(x, y, 2).shape)
for dims in (([0], [1]), -1, 3, ([0, 1], [0])):
    try:
        torch.tensordot(m, n, dims=dims)
    except RuntimeError as exc:
        print("RuntimeError", exc)
