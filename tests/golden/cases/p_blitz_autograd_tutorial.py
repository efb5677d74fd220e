# source: original
# topic: autograd
# compare: exact
# visibility: public
# PyTorch's "A Gentle Introduction to torch.autograd" and the autograd tutorial's
# Q = 3a^3 - b^2 with an external gradient, the grad_fn chain, and inp.grad accumulating over
# repeated backward calls with retain_graph.
import torch
a = torch.tensor([2.0, 3.0], requires_grad=True)
b = torch.tensor([6.0, 4.0], requires_grad=True)
Q = 3*a**3 - b**2
print(Q)
external_grad = torch.tensor([1., 1.])
Q.backward(gradient=external_grad)
print(9*a**2 == a.grad)
print(-2*b == b.grad)
print(Q.grad_fn)
print(Q.grad_fn.next_functions)
print(Q.grad_fn.next_functions[0][0].next_functions)
print(Q.grad_fn.name())
print(a.grad_fn, a.is_leaf)
x = torch.ones(2, 2, requires_grad=True)
y = x + 2
z = y * y * 3
out = z.mean()
print(y)
print(z, out)
print(y.grad_fn)
out.backward()
print(x.grad)
inp = torch.eye(4, 5, requires_grad=True)
out = (inp + 1).pow(2).t()
out.backward(torch.ones_like(out), retain_graph=True)
print(f"First call\n{inp.grad}")
out.backward(torch.ones_like(out), retain_graph=True)
print(f"\nSecond call\n{inp.grad}")
inp.grad.zero_()
out.backward(torch.ones_like(out), retain_graph=True)
print(f"\nCall after zeroing gradients\n{inp.grad}")
