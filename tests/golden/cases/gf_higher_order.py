# source: original
# topic: grad-fn
# compare: exact
# visibility: public
# Gradients computed with create_graph=True have grad_fns of their own.
import torch
x = torch.tensor(2.0, requires_grad=True)
y = x ** 3
(g,) = torch.autograd.grad(y, x, create_graph=True)
print(g, type(g.grad_fn).__name__)
(h,) = torch.autograd.grad(g, x, create_graph=True)
print(h, type(h.grad_fn).__name__)
(k,) = torch.autograd.grad(h, x)
print(k, k.requires_grad)
z = torch.tensor([1.0, 2.0], requires_grad=True)
(gz,) = torch.autograd.grad((z.sin() * z).sum(), z, create_graph=True)
print(gz)
print(torch.autograd.grad(gz.sum(), z))
(plain,) = torch.autograd.grad((z * z).sum(), z)
print(plain, plain.requires_grad, plain.grad_fn)
