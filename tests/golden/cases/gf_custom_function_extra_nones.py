# source: original
# topic: custom-function
# compare: exact
# visibility: public
# A custom Function's backward may answer more gradients than it has inputs if the extra ones
# are None (the tutorial's LinearFunction called without its optional bias); anything else is
# an incorrect number of gradients.
import torch


class LinearFunction(torch.autograd.Function):
    @staticmethod
    def forward(ctx, input, weight, bias=None):
        ctx.save_for_backward(input, weight, bias)
        output = input.mm(weight.t())
        if bias is not None:
            output += bias.unsqueeze(0).expand_as(output)
        return output

    @staticmethod
    def backward(ctx, grad_output):
        input, weight, bias = ctx.saved_tensors
        grad_input = grad_weight = grad_bias = None
        if ctx.needs_input_grad[0]:
            grad_input = grad_output.mm(weight)
        if ctx.needs_input_grad[1]:
            grad_weight = grad_output.t().mm(input)
        if bias is not None and ctx.needs_input_grad[2]:
            grad_bias = grad_output.sum(0)
        return grad_input, grad_weight, grad_bias


x = torch.tensor([[1.0, 2.0], [3.0, 4.0]], requires_grad=True)
w = torch.tensor([[0.5, -1.0], [2.0, 0.25], [1.0, 1.0]], requires_grad=True)
b = torch.tensor([0.1, 0.2, 0.3], requires_grad=True)
out = LinearFunction.apply(x, w, b)
print(out)
out.sum().backward()
print(x.grad, w.grad, b.grad, sep="\n")
x.grad = w.grad = None
out = LinearFunction.apply(x, w)
print(out)
out.sum().backward()
print(x.grad, w.grad, sep="\n")


class Scale(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x, k):
        ctx.k = k
        return x * k

    @staticmethod
    def backward(ctx, g):
        return g * ctx.k, None, None, None


x.grad = None
Scale.apply(x, 3.0).sum().backward()
print(x.grad)


class TooMany(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        return x * 2

    @staticmethod
    def backward(ctx, g):
        return g, None, g


class TooFew(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x, y):
        return x * y

    @staticmethod
    def backward(ctx, g):
        return g


for fn, args in ((TooMany, (x,)), (TooFew, (x, x))):
    try:
        fn.apply(*args).sum().backward()
    except RuntimeError as e:
        print(e)
