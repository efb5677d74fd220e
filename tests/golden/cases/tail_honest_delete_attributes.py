# source: original
# topic: python
# compare: exact
# visibility: public
# Deleting attributes: `del ctx.result` in a custom Function (the forward-AD tutorial's
# style), delattr on a module, `del` of a parameter and of the program's own attributes.
import torch
import torch.nn as nn


class Cube(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        ctx.save_for_backward(x)
        ctx.result = x ** 3
        out = ctx.result
        del ctx.result
        return out

    @staticmethod
    def backward(ctx, g):
        (x,) = ctx.saved_tensors
        return 3 * x * x * g


x = torch.tensor([1.0, 2.0], requires_grad=True)
y = Cube.apply(x)
y.sum().backward()
print(y, x.grad)

m = nn.Linear(3, 2)
m.note = "temporary"
print(hasattr(m, "note"))
delattr(m, "note")
print(hasattr(m, "note"))
del m.bias
print([n for n, _ in m.named_parameters()])
name = "weight"
delattr(m, name)
print([n for n, _ in m.named_parameters()])


class Config:
    pass


c = Config()
c.lr, c.steps = 0.1, 3
del c.lr
print(hasattr(c, "lr"), c.steps)
try:
    del c.lr
except AttributeError as e:
    print("AttributeError:", e)
