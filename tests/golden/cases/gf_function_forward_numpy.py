# source: original
# topic: Function.forward runs with grad mode off, so .numpy() of an input that requires grad is allowed there
# compare: exact
# visibility: public
import torch

class Cube(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        print(torch.is_grad_enabled(), x.requires_grad)
        a = x.numpy()
        ctx.save_for_backward(x)
        return torch.from_numpy(a ** 3)

    @staticmethod
    def backward(ctx, g):
        x, = ctx.saved_tensors
        return g * 3 * x ** 2

x = torch.tensor([1.0, 2.0], requires_grad=True)
y = Cube.apply(x)
print(y)
y.sum().backward()
print(x.grad)
with torch.no_grad():
    try:
        x.numpy()
    except RuntimeError as e:
        print("RuntimeError", e)
