# source: original
# topic: grad_fn
# compare: exact
# visibility: public
# scatter_reduce: per-group sums, products, means and extremes, with and without self.
import torch

x = torch.tensor([1., 2., 3., 4., 5.], requires_grad=True)
src = torch.tensor([10., 20., 30., 40., 50., 60.], requires_grad=True)
group = torch.tensor([0, 1, 0, 1, 2, 1])
weights = torch.arange(1., 6.)
for reduce in ("sum", "prod", "mean", "amax", "amin"):
    for include_self in (True, False):
        y = torch.scatter_reduce(x, 0, group, src, reduce=reduce, include_self=include_self)
        (y * weights).sum().backward()
        print(reduce, include_self, y.detach(), y.grad_fn.name())
        print("   ", x.grad, src.grad)
        x.grad = None
        src.grad = None
y = x.scatter_reduce(0, group, src, "amax")
g = y.grad_fn
print(g._saved_dim, g._saved_include_self, g._saved_index, g._saved_reduce)
print(g._saved_self is x, g._saved_src is src, g._saved_result)
# mean pooling of node features into graphs, as graph-network tutorials do
feats = torch.tensor([[1., 2.], [3., 4.], [5., 6.], [7., 8.]], requires_grad=True)
batch = torch.tensor([[0, 0], [0, 0], [1, 1], [1, 1]])
pooled = torch.zeros(2, 2).scatter_reduce(0, batch, feats, "mean", include_self=False)
pooled.pow(2).sum().backward()
print(pooled, feats.grad)
# ties share the gradient; zeros in a product are handled without dividing by them
m = torch.tensor([[1., 5.], [3., 2.]], requires_grad=True)
s = torch.tensor([[4., 5.], [3., 0.]], requires_grad=True)
y = m.scatter_reduce(1, torch.tensor([[1, 1], [0, 0]]), s, "amax")
y.backward(torch.ones(2, 2))
print(y, m.grad, s.grad)
xs = torch.tensor([0., 2., 3.], requires_grad=True)
ss = torch.tensor([0., 4., 5., 0.], requires_grad=True)
y = xs.scatter_reduce(0, torch.tensor([0, 1, 1, 2]), ss, "prod")
y.sum().backward()
print(y, xs.grad, ss.grad)
print(torch.tensor([1, 2, 3]).scatter_reduce(0, torch.tensor([0, 0, 1]), torch.tensor([4, 5, 7]),
                                             "mean"))
t = torch.ones(3)
print(t.scatter_reduce_(0, torch.tensor([0, 0]), torch.tensor([5., 7.]), "amax"), t)
w = torch.ones(3, requires_grad=True) * 2
w.scatter_reduce_(0, torch.tensor([2, 2]), torch.tensor([3., 4.]), "prod")
print(w)
for reduce in ("add", "max"):
    try:
        x.scatter_reduce(0, group, src, reduce).sum().backward()
    except RuntimeError as e:
        print(e)
