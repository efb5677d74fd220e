# source: original
# topic: grad-fn
# compare: exact
# visibility: public
# The newer custom Function style: forward(*inputs) without ctx plus setup_context(ctx,
# inputs, output); and @once_differentiable, whose backward runs without recording a graph.
import torch
from torch.autograd import Function
from torch.autograd.function import once_differentiable


class Cube(Function):
    @staticmethod
    def forward(x, scale):
        return x ** 3 * scale

    @staticmethod
    def setup_context(ctx, inputs, output):
        x, scale = inputs
        ctx.save_for_backward(x)
        ctx.scale = scale

    @staticmethod
    def backward(ctx, g):
        (x,) = ctx.saved_tensors
        return 3 * x ** 2 * g * ctx.scale, None


class Exp(Function):
    @staticmethod
    def forward(ctx, x):
        result = x.exp()
        ctx.save_for_backward(result)
        return result

    @staticmethod
    @once_differentiable
    def backward(ctx, g):
        (result,) = ctx.saved_tensors
        print("grad mode inside backward:", torch.is_grad_enabled())
        return g * result


x = torch.tensor([1.0, 2.0], requires_grad=True)
y = Cube.apply(x, 2.0)
print(y, type(y.grad_fn).__name__)
g, = torch.autograd.grad(y.sum(), x, create_graph=True)
print(g)
g.sum().backward()
print(x.grad)
x.grad = None
z = Exp.apply(x)
z.sum().backward()
print(x.grad)
g, = torch.autograd.grad(Exp.apply(x).sum(), x, create_graph=True)
print(g, g.requires_grad)
try:
    g.sum().backward()
except RuntimeError as e:
    print(e)
