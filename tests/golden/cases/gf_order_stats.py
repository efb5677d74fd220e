# source: original
# topic: grad_fn
# compare: exact
# visibility: public
# kthvalue, median (all elements and along a dim) and mode: values, the index chosen among
# ties, grad_fn names, saved values and where the gradient goes.
import torch

x = torch.tensor([[3., 1., 2., 1., 1.], [5., 4., 4., 0., 4.]], requires_grad=True)
k = torch.kthvalue(x, 2)
print(k)
print(k.values.grad_fn.name(), k.values.grad_fn._saved_dim, k.values.grad_fn._saved_keepdim)
print(k.values.grad_fn._saved_indices, k.values.grad_fn._saved_self_sym_sizes)
k.values.sum().backward()
print(x.grad)
x.grad = None

print(x.kthvalue(1, 0, True))
print(torch.kthvalue(torch.tensor([2., 2., 1., 2., 2., 1., 2.]), 4))
print(torch.kthvalue(torch.tensor([7, 3, 3, 9]), 3, dim=0))

m = x.median()
print(m, m.grad_fn.name())
m.backward()
print(x.grad)
x.grad = None

md = torch.median(x, dim=1)
print(md, md.values.grad_fn.name(), md.values.grad_fn._saved_dim)
md.values.sum().backward()
print(x.grad)
x.grad = None
print(x.median(0, keepdim=True))
print(torch.median(torch.tensor([1, 2, 3, 4])), torch.median(torch.tensor([[4., 1., 3., 2.]]), 1))
print(torch.median(torch.tensor([1., float("nan"), 3.])),
      torch.median(torch.tensor([[1., float("nan"), 3., float("nan")]]), -1))

mo = torch.mode(x)
print(mo, mo.values.grad_fn.name())
mo.values.sum().backward()
print(x.grad)
print(torch.mode(torch.tensor([3, 1, 3, 1, 2])), x.mode(0))

y = torch.tensor([1., 2., 2., 2.], requires_grad=True)
torch.median(y).backward()
print(y.grad)
z = torch.tensor([4., 0., 1.], requires_grad=True)
s = torch.tensor(5., requires_grad=True)
print(torch.kthvalue(s, 1), torch.median(s, 0), torch.mode(z))
values, indices = torch.median(z, 0)
(values * 3).backward()
print(values, indices, z.grad)
