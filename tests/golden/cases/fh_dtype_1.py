# source: original
# topic: dtype
# compare: exact
# visibility: public
# A Python number raised to an integer tensor keeps the integer dtype; a float base gives float.
import torch
n = torch.tensor([0, 1, 2, 3])
print(2 ** n)
print(2.0 ** n)
print(torch.pow(10, n))
x = torch.tensor([0.0, 1.0], requires_grad=True)
y = 2 ** x
y.sum().backward()
print(y, x.grad)
