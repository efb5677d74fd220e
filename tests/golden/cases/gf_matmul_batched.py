# source: original
# topic: grad-fn
# compare: exact
# visibility: public
# matmul with a batch dimension.
import torch
a = torch.ones(2, 2, 3, requires_grad=True)
b = torch.ones(3, 2)
y = a @ b
print(type(y.grad_fn).__name__, y.shape)
print(y)
print(type(y.grad_fn.next_functions[0][0]).__name__)
