# title_en: detach() and detach_()
# title_zh: detach() 与 detach_()
# description: A detached tensor shares storage but leaves the graph; detach_() cuts in place.
# The post's description of detach / detach_ turned into code.
import torch
w = torch.tensor([1.0, 2.0, 3.0], requires_grad=True)
x = w * 2          # x is an intermediate output
y = x.detach()     # same data, requires_grad == False, no grad_fn, a leaf
print(x.requires_grad, x.is_leaf, x.grad_fn is None)
print(y.requires_grad, y.is_leaf, y.grad_fn)
print(y)
y[0] = 100.0       # x and y share the same storage (x.data)
print(x)
print(x.data)
x.detach_()        # no new tensor: x itself is cut from the graph
print(x.requires_grad, x.is_leaf, x.grad_fn)
print(x)
