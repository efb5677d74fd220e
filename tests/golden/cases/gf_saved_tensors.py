# source: original
# topic: grad-fn
# compare: exact
# visibility: public
# What a node saves for backward is visible as _saved_<name>; after backward it is gone.
import torch
x = torch.tensor([1.0, 2.0], requires_grad=True)
w = torch.tensor([3.0, 4.0], requires_grad=True)
y = x * w
print(y.grad_fn._saved_self, y.grad_fn._saved_other)
print(y.grad_fn._saved_self is x)
e = x.exp()
print(e.grad_fn._saved_result)
p = x ** 3
print(p.grad_fn._saved_self, p.grad_fn._saved_exponent)
s = x.sum()
print(s.grad_fn._saved_self_sym_sizes)
acc = y.grad_fn.next_functions[0][0]
print(type(acc).__name__, acc.variable is x, acc.variable)
y.sum().backward()
try:
    print(y.grad_fn._saved_self)
except RuntimeError as err:
    print(type(err).__name__, err)
