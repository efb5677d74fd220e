# source: original
# topic: grad-fn
# compare: exact
# visibility: public
# A custom autograd.Function's node prints with PyTorch's qualified class name.
import torch


class Square(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        ctx.save_for_backward(x)
        return x ** 2

    @staticmethod
    def backward(ctx, grad_output):
        x, = ctx.saved_tensors
        return 2 * x * grad_output


x = torch.tensor([3.0], requires_grad=True)
y = Square.apply(x)
print(y)
print(y.grad_fn)
print(type(y.grad_fn).__name__)
z = (y * 2).sum()
print(z.grad_fn.next_functions[0][0].next_functions)
z.backward()
print(x.grad)
