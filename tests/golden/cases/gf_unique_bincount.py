# source: original
# topic: grad-fn
# compare: exact
# visibility: public
# torch.unique (sorted; inverse indices and counts on request; along a dim) and
# torch.bincount (weights, minlength, and its refusals). unique of a tensor that requires
# grad records Unique2Backward0 / UniqueDimBackward0, whose backward raises.
import torch

x = torch.tensor([3, 1, 2, 3, 1, 5])
print(torch.unique(x), torch.unique(x, sorted=False))
print(x.unique(return_counts=True), torch.unique(x, return_inverse=True))
print(torch.unique(x, return_inverse=True, return_counts=True))
print(torch.unique(torch.tensor([[1, 2], [1, 2], [0, 1]]), dim=0, return_counts=True))
print(torch.unique(torch.tensor([[3, 1], [1, 2]]), return_inverse=True))
print(torch.unique(torch.tensor([2.5, 1.0, 2.5])), torch.unique(torch.tensor([True, False, True])))
print(torch.bincount(x), torch.bincount(x, minlength=8), x.bincount())
print(torch.bincount(x, weights=torch.tensor([0.5] * 6)),
      torch.bincount(x, weights=torch.tensor([0.5] * 6, dtype=torch.float64)))
labels = torch.tensor([0, 2, 1, 2, 2])
print(torch.bincount(labels, minlength=3).float() / len(labels))
print(torch.bincount(torch.tensor([], dtype=torch.long)))
for bad in [torch.tensor([1.0, 2.0]), torch.tensor([-1, 2]), torch.ones(2, 2, dtype=torch.long)]:
    try:
        torch.bincount(bad)
    except RuntimeError as e:
        print(e)
u = torch.unique(torch.tensor([1.0, 2.0, 1.0], requires_grad=True))
print(u, type(u.grad_fn).__name__, [type(f).__name__ for f, _ in u.grad_fn.next_functions])
try:
    u.sum().backward()
except RuntimeError as e:
    print(e)
v = torch.unique(torch.tensor([[1.0, 2.0], [1.0, 2.0]], requires_grad=True), dim=0)
print(v)
try:
    v.sum().backward()
except RuntimeError as e:
    print(e)
