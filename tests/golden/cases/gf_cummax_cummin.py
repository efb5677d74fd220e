# source: original
# topic: grad-fn
# compare: exact
# visibility: public
# torch.cummax / cummin return torch.return_types.cummax(values=..., indices=...). A tie moves
# the index to the later position; a nan takes over (and so does each later nan). The gradient
# goes to the position each running extreme came from, added up (CummaxBackward0 /
# CumminBackward0).
import torch

x = torch.tensor([[1.0, 3.0, 2.0, 3.0, 0.0], [2.0, 2.0, 5.0, 1.0, 5.0]], requires_grad=True)
r = x.cummax(1)
print(r)
print(type(r).__name__, r.values, r.indices)
fn = r.values.grad_fn
print(fn.name(), [type(n).__name__ for n, _ in fn.next_functions])
print(fn._saved_dim, fn._saved_indices, fn._saved_self)
r.values.backward(torch.arange(10.0).reshape(2, 5))
print(x.grad)
x.grad = None

m = torch.cummin(x, dim=-1)
print(m, m.values.grad_fn._saved_dim)
m.values.sum().backward()
print(x.grad)

values, indices = torch.cummax(x, 0)
print(values, indices)
y = torch.tensor([1.0, float("nan"), 0.0, float("nan"), 2.0], requires_grad=True)
print(y.cummax(0), y.cummin(0))  # the later nan takes over
y.cummax(0).values.sum().backward()
print(y.grad)
print(torch.tensor([3, 1, 3, 2]).cummax(0), torch.tensor([True, False, True]).cummin(0))
print(torch.tensor(5.0, requires_grad=True).cummax(0))
z = torch.tensor([-0.0, 0.0, -0.0], requires_grad=True)
print(z.cummax(0), z.cummin(0))
print(torch.empty(0, requires_grad=True).cummax(0))

w = torch.tensor([2.0, 2.0, 2.0], requires_grad=True)
g, = torch.autograd.grad(w.cummax(0).values.sum(), w, create_graph=True)
print(g, g.grad_fn.name() if g.grad_fn else None)
v = torch.tensor([0.5, 2.0, 1.0], requires_grad=True)
g, = torch.autograd.grad((v.cummin(0).values ** 2).sum(), v, create_graph=True)
print(g, g.grad_fn.name() if g.grad_fn else None)
g.sum().backward()
print(v.grad)
try:
    x.cummax(2)
except IndexError as e:
    print("IndexError:", e)
