# title_en: Inside torch.no_grad()
# title_zh: 在 torch.no_grad() 之中
# description: A result computed under no_grad has no grad_fn and stands outside the graph.
# Same session, printing the grad_fn class name instead of its address.
import torch as t
x = t.ones(2,2, requires_grad=True)
with t.no_grad():
    y = x + 2

print(y.grad_fn)
print(y.requires_grad, y.is_leaf)
z = x + 2
print(type(z.grad_fn).__name__)
print(z.requires_grad, z.is_leaf)
print(z)
