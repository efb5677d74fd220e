# source: original
# topic: printing
# compare: exact
# visibility: public
# grad_fn objects print as <Name object at 0x...>; addresses match any address.
import torch
x = torch.tensor([1.0, 2.0], requires_grad=True)
y = x * 2
print(y.grad_fn)
print(y.grad_fn.next_functions)
print(y.grad_fn.next_functions[0][0])
print(y.grad_fn.name())
print(x.grad_fn, x.is_leaf, y.is_leaf)
print(type(y.grad_fn.next_functions[0][0]).__name__)
print(y.grad_fn.next_functions[0][0].variable is x)
