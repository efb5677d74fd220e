# source: original
# topic: grad-fn
# compare: exact
# visibility: public
# A custom Function that modifies its input in place and says so with ctx.mark_dirty returns
# that very tensor, now with the Function's grad_fn and a bumped version; a leaf that requires
# grad is refused in PyTorch's words (after forward has run).
import torch


class AddOneInplace(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        x.add_(1)
        ctx.mark_dirty(x)
        return x

    @staticmethod
    def backward(ctx, g):
        return g


a = torch.tensor([1.0, 2.0], requires_grad=True)
b = a * 2
v0 = b._version
c = AddOneInplace.apply(b)
print(c, c is b, type(b.grad_fn).__name__, b._version - v0, b.is_leaf)
print([type(f).__name__ for f, _ in c.grad_fn.next_functions])
c.sum().backward()
print(a.grad)
try:
    AddOneInplace.apply(a)
except RuntimeError as e:
    print(e)
print(a)
n = torch.ones(2)
print(AddOneInplace.apply(n), n, n._version)
