# source: original
# topic: warnings
# compare: exact
# visibility: public
# backward(create_graph=True) warns about the reference cycle it creates.
import torch
x = torch.tensor(2.0, requires_grad=True)
y = x ** 3
y.backward(create_graph=True)
print(x.grad)
g = x.grad
x.grad = None
g.backward()
print(x.grad)
