# source: original
# topic: backward-inputs
# compare: exact
# visibility: public
# backward(inputs=[...]) with a non-leaf input retains its grad (no .grad warning), and later
# passes keep accumulating into it; tensor hooks still run.
import torch
x = torch.tensor([1.0, 2.0, 3.0], requires_grad=True)
y = x ** 2
y.sum().backward(inputs=[x])
print(x.grad)
z = (x * 2)
w = z ** 2
w.sum().backward(inputs=[z])
print(z.grad, x.grad)
print(torch.autograd.grad(w.sum() if False else (x ** 3).sum(), x))
a = torch.tensor(1.0, requires_grad=True)
b = torch.tensor(2.0, requires_grad=True)
c = a * b
c.backward(inputs=[a])
print(a.grad, b.grad)
x = torch.tensor([1.0, 2.0], requires_grad=True)
z = x * 2
h = z.register_hook(lambda g: print("hook", g))
w = (z ** 2).sum()
w.backward(inputs=[z], retain_graph=True)
print(z.grad, z.retains_grad, x.grad)
w.backward(retain_graph=True)
print(z.grad, x.grad)
w.backward(inputs=[x, z])
print(z.grad, x.grad)
