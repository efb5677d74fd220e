# source: original
# topic: a custom autograd.Function under torch.func transforms (vmap, grad, jacrev): one with
#   a ctx-taking forward and no setup_context is refused in PyTorch's words; one with
#   setup_context and generate_vmap_rule runs; plain autograd takes both
# compare: exact
# visibility: public
import torch
from torch.func import grad, jacrev, vmap


class Square(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        ctx.save_for_backward(x)
        return x ** 2

    @staticmethod
    def backward(ctx, g):
        x, = ctx.saved_tensors
        return 2 * x * g


class Sine(torch.autograd.Function):
    generate_vmap_rule = True

    @staticmethod
    def forward(x):
        return x.sin()

    @staticmethod
    def setup_context(ctx, inputs, output):
        ctx.save_for_backward(inputs[0])

    @staticmethod
    def backward(ctx, g):
        x, = ctx.saved_tensors
        return g * x.cos()


x = torch.tensor([0.5, 1.0], requires_grad=True)
Square.apply(x).sum().backward()
print(x.grad)
for label, call in [("vmap", lambda: vmap(Square.apply)(torch.ones(3, 2))),
                    ("grad", lambda: grad(lambda t: Square.apply(t).sum())(torch.ones(2))),
                    ("jacrev", lambda: jacrev(Square.apply)(torch.ones(2)))]:
    try:
        call()
    except RuntimeError as e:
        print(label, e)
print(vmap(Sine.apply)(torch.zeros(2, 2)))
print(grad(lambda t: Sine.apply(t).sum())(torch.zeros(2)))
print(Square.apply(torch.tensor([3.0])))
