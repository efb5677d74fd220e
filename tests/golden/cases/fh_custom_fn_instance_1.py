# source: original
# topic: custom-function
# compare: exact
# visibility: public
# Instantiating a custom autograd.Function warns (DeprecationWarning); calling the instance is
# the legacy API and raises; apply on the class (or the instance) works.
import torch


class Double(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        return x * 2

    @staticmethod
    def backward(ctx, grad):
        return grad * 2


f = Double()
print(type(f))
x = torch.tensor([1.0, 3.0], requires_grad=True)
try:
    f(x)
except RuntimeError as e:
    print(type(e).__name__, e)
y = f.apply(x)
print(y)
y.sum().backward()
print(x.grad)
