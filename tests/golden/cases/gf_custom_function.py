# source: original
# topic: grad-fn
# compare: exact
# visibility: public
# A custom autograd.Function is named after its class, with "Backward" appended.
import torch


class Cube(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        ctx.save_for_backward(x)
        return x ** 3

    @staticmethod
    def backward(ctx, grad):
        (x,) = ctx.saved_tensors
        print("needs_input_grad", ctx.needs_input_grad)
        return grad * 3 * x ** 2


x = torch.tensor([1.0, 2.0], requires_grad=True)
y = Cube.apply(x)
print(type(y.grad_fn).__name__, y)
print([type(f).__name__ for f, _ in y.grad_fn.next_functions])
y.sum().backward()
print(x.grad)
