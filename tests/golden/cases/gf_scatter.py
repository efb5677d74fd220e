# source: original
# topic: grad_fn
# compare: exact
# visibility: public
# scatter / scatter_add (tensor src and number value, in place too): nodes, saved values, grads.
import torch

index = torch.tensor([[0, 1, 0], [1, 0, 1]])
src = torch.tensor([[1., 2., 3.], [4., 5., 6.]], requires_grad=True)
base = torch.zeros(2, 3, requires_grad=True)

added = torch.scatter_add(base, 0, index, src)
print(added)
print(added.grad_fn.name(), [type(f).__name__ for f, _ in added.grad_fn.next_functions])
print(added.grad_fn._saved_dim, added.grad_fn._saved_index)
(added * torch.tensor([[1., 2., 3.], [4., 5., 6.]])).sum().backward()
print(src.grad)
print(base.grad)

src.grad = base.grad = None
written = base.scatter(1, torch.tensor([[2, 0, 1], [0, 1, 2]]), src)
print(written, written.grad_fn)
(written * torch.arange(1., 7.).view(2, 3)).sum().backward()
print(src.grad)
print(base.grad)

h = base * 2
filled = h.scatter(-1, torch.tensor([[1], [2]]), 7.5)
print(filled, filled.grad_fn, filled.grad_fn._saved_dim)
filled.sum().backward()
print(base.grad)

acc = torch.zeros(4)
leaf = torch.tensor([1., 2., 3.], requires_grad=True)
acc.scatter_add_(0, torch.tensor([3, 0, 3]), leaf)
print(acc, acc._version)
acc.pow(2).sum().backward()
print(leaf.grad)

plain = torch.ones(2, 4)
plain.scatter_(1, torch.tensor([[3, 1], [0, 0]]), torch.tensor([[5., 6.], [7., 8.]]))
print(plain)
print(torch.ones(2, 3).scatter_(0, index, 2.0, reduce="multiply"))
print(torch.zeros(5, dtype=torch.long).scatter_add(0, torch.tensor([4, 4, 1]),
                                                 torch.tensor([1, 2, 3])))
print(torch.zeros(3).scatter(0, torch.tensor([2, 0]), value=4.0))
print(torch.zeros(3, dtype=torch.int64).scatter(0, torch.tensor([1]), 2.7))
counts = torch.zeros(3).scatter_add(0, torch.tensor([0, 2, 2, 2]), torch.ones(4))
print(counts)
