# source: original
# topic: inplace
# compare: exact
# visibility: public
# More in-place methods (sin_, cos_, square_, reciprocal_, floor_ ...) record their op's
# node; views report their _base and share data_ptr.
import torch

x = torch.tensor([0.5, 1.0], requires_grad=True)
for z, r in (((x * 1), "sin_"), ((x * 1), "cos_"), ((x * 1), "square_"), ((x * 1), "reciprocal_"),
             ((x * 1), "floor_"), ((x * 1), "exp_"), ((x * 1), "sigmoid_"), ((x * 1), "neg_")):
    out = {"sin_": z.sin_, "cos_": z.cos_, "square_": z.square_, "reciprocal_": z.reciprocal_,
           "floor_": z.floor_, "exp_": z.exp_, "sigmoid_": z.sigmoid_, "neg_": z.neg_}[r]()
    print(r, out, out.grad_fn.name(), out is z, z._version)
a = torch.tensor([1.0, 2.0, 3.0, 4.0], requires_grad=True)
b = a.view(2, 2)
c = a.reshape(4, 1)
d = a.unsqueeze(0)
e = a[None, :]
print(b.grad_fn, c.grad_fn, d.grad_fn, e.grad_fn)
print(b._base is a, b.is_contiguous(), b.t().is_contiguous())
f = b.t().contiguous()
print(f.grad_fn)
(b.sum() + c.sum() + f.sum()).backward()
print(a.grad)
print(a.data_ptr() == b.data_ptr(), a.data_ptr() == a[1:].data_ptr(), a._base, b._base is a)
