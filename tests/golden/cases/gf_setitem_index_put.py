# source: original
# topic: assignment with masks, lists and index tensors runs index_put_ on the tensor itself
#   (grad_fn=<IndexPutBackward0>); an int or a partial slice in the key writes through a view
#   (CopySlices); the leaf refusals of both
# compare: exact
# visibility: public
import torch
v = torch.tensor([1.0, 2.0], requires_grad=True)
z = torch.zeros(4)
m = torch.tensor([True, False, True, False])
z[m] = v
print(z.grad_fn.next_functions, z.grad_fn.name(), z.grad_fn._saved_indices)
a = torch.tensor([1.0, 2.0, 3.0], requires_grad=True)
b = a * 1
b[[0, 0]] = v
print(b, b.grad_fn.next_functions)
(b * torch.tensor([1.0, 2.0, 3.0])).sum().backward()
print(a.grad, v.grad)
c = torch.ones(2, 3, requires_grad=True) * 1
c[torch.tensor([1]), torch.tensor([2])] = 5.0
print(c, c.grad_fn)
c[c > 1] = torch.tensor(7.0, requires_grad=True)
print(c)
c.sum().backward()
try:
    a[[0]] = 1.0
except RuntimeError as e:
    print(e)
d = torch.zeros(3)
d[torch.tensor([0, 1])] = torch.tensor([1.0, 2.0], requires_grad=True) * 2
print(d.grad_fn, d.grad_fn.next_functions)
e = torch.zeros(2, 2)
e[0, [0, 1]] = v
print(e, e.grad_fn)
f = torch.zeros(2, 2)
f[:, [1]] = v.view(2, 1)
print(f.grad_fn)
g = torch.zeros(3)
idx = torch.tensor(1)
g[idx] = v[0]
print(g.grad_fn)
lf = torch.tensor([1.0, 2.0], requires_grad=True)
for k in [torch.tensor(0), [0], torch.tensor([True, False]), 0, slice(0, 1)]:
    try:
        lf[k] = 5.0
    except RuntimeError as e:
        print(e)
h = torch.zeros(2, 3)
h[:, [0, 2]] = v.view(2, 1)
print(h, h.grad_fn._saved_indices, h.grad_fn._saved_accumulate)
h.sum().backward()
print(v.grad)
