# source: original
# topic: what a custom autograd.Function's backward may return: a gradient its input broadcasts
#   to is summed back, another dtype is cast, other shapes and non-tensors are refused
# compare: exact
# visibility: public
import torch


class LinearFunction(torch.autograd.Function):
    # the bias gradient is returned unsummed: autograd sums it over the batch
    @staticmethod
    def forward(ctx, input, weight, bias):
        ctx.save_for_backward(input, weight)
        return input @ weight.t() + bias

    @staticmethod
    def backward(ctx, grad_output):
        input, weight = ctx.saved_tensors
        return grad_output @ weight, grad_output.t() @ input, grad_output


x = torch.tensor([[1.0, 2.0], [3.0, 4.0], [5.0, 6.0]], requires_grad=True)
w = torch.tensor([[0.5, -1.0], [2.0, 0.25]], requires_grad=True)
b = torch.tensor([0.5, 1.0], requires_grad=True)
LinearFunction.apply(x, w, b).sum().backward()
print(x.grad)
print(w.grad)
print(b.grad)


def scaled(backward):
    class Scale(torch.autograd.Function):
        @staticmethod
        def forward(ctx, a, k):
            return a * k

        @staticmethod
        def backward(ctx, g):
            return backward(g)
    return Scale


v = torch.tensor([1.0, 2.0, 3.0], requires_grad=True)
cases = [
    ("expanded", lambda g: (g.expand(2, 3), None)),
    ("float64", lambda g: (g.double() * 2, None)),
    ("int", lambda g: (g.int(), None)),
    ("too short", lambda g: (g[:1], None)),
    ("column", lambda g: (g.reshape(3, 1), None)),
    ("summed", lambda g: (g.sum(), None)),
    ("for the number", lambda g: (g, 1.0)),
    ("a float", lambda g: (2.0, None)),
    ("a list", lambda g: ([1.0, 2.0, 3.0], None)),
]
for label, backward in cases:
    v.grad = None
    try:
        scaled(backward).apply(v, 2.0).sum().backward()
        print(label, v.grad, v.grad.dtype)
    except Exception as e:
        print(label, type(e).__name__, e)


class Pair(torch.autograd.Function):
    @staticmethod
    def forward(ctx, a, b):
        return a * b

    @staticmethod
    def backward(ctx, g):
        return g, g[:2]


try:
    Pair.apply(v, torch.tensor([1.0, 2.0, 3.0], requires_grad=True)).sum().backward()
except RuntimeError as e:
    print(e)
v.grad = None
Pair.apply(v, torch.ones(3)).sum().backward()     # b needs no gradient: nothing checks it
print(v.grad)
