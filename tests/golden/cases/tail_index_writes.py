# source: original
# topic: indexing
# compare: exact
# visibility: public
# index_copy(_), index_add(_), index_put(_) with their grad_fns, gradients and errors.
import torch

x = torch.zeros(5, 3)
t = torch.tensor([[1., 2, 3], [4, 5, 6], [7, 8, 9]], requires_grad=True)
index = torch.tensor([0, 4, 2])
y = x.index_copy(0, index, t)
print(y)
(y * torch.arange(15.).view(5, 3)).sum().backward()
print(t.grad)
base = torch.ones(5, 3, requires_grad=True)
x2 = base.clone()
x2.index_add_(0, index, t, alpha=2)
print(x2)
print(x2.grad_fn.next_functions[0][0])
(x2 * torch.arange(15.).view(5, 3)).sum().backward()
print(base.grad)
print(t.grad)
print(torch.zeros(3, 3).index_copy_(1, torch.tensor([2, 0]), torch.ones(3, 2)))
print(torch.zeros(3).index_add(0, torch.tensor([1, 1]), torch.tensor([2., 5.])))
x4 = torch.zeros(4)
x4.index_put_((torch.tensor([0, 2]),), torch.tensor([5., 6.]))
print(x4)
x4.index_put_((torch.tensor([0, 0]),), torch.tensor([1., 1.]), accumulate=True)
print(x4)
v = torch.tensor([1., 2.], requires_grad=True)
src = torch.zeros(2, 3, requires_grad=True)
w = src.index_put((torch.tensor([1, 1]), torch.tensor([0, 2])), v, accumulate=True)
print(w)
(w * torch.tensor([[1., 2, 3], [4, 5, 6]])).sum().backward()
print(v.grad, src.grad)
w2 = src.index_put((torch.tensor([1]),), torch.tensor(9.))
print(w2, w2.grad_fn.next_functions)
for bad in (lambda: torch.zeros(3).index_copy_(0, torch.tensor([0, 1]), torch.ones(3)),
            lambda: torch.zeros(3).index_copy_(0, torch.tensor([0.]), torch.ones(1)),
            lambda: torch.zeros(3).index_add_(0, torch.tensor([5]), torch.ones(1)),
            lambda: torch.zeros(3).index_copy_(0, torch.tensor([5]), torch.ones(1)),
            lambda: torch.zeros(3).index_add_(0, torch.tensor([1]),
                                              torch.ones(1, dtype=torch.float64)),
            lambda: torch.zeros(3, requires_grad=True).index_put_((torch.tensor([0]),),
                                                                  torch.ones(1))):
    try:
        bad()
    except (IndexError, RuntimeError) as e:
        print(type(e).__name__, e)
