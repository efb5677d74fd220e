# source: original
# topic: grad-fn
# compare: exact
# visibility: public
# A custom Function's backward gets zeros for outputs that received no gradient (unused or
# marked non-differentiable), and None once ctx.set_materialize_grads(False) is called.
import torch


class Split(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        return x.clone(), x * 2

    @staticmethod
    def backward(ctx, g1, g2):
        print("grads in:", g1, g2)
        return g1 + 2 * g2


class SplitLazy(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        ctx.set_materialize_grads(False)
        return x.clone(), x * 2

    @staticmethod
    def backward(ctx, g1, g2):
        print("grads in:", g1, g2)
        return g1 if g2 is None else g1 + 2 * g2


class SortFn(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        values, idx = x.sort()
        ctx.mark_non_differentiable(idx)
        ctx.save_for_backward(idx)
        return values, idx

    @staticmethod
    def backward(ctx, g, g_idx):
        (idx,) = ctx.saved_tensors
        print("index grad:", g_idx)
        out = torch.zeros_like(g)
        out[idx] = g
        return out


x = torch.tensor([3.0, 1.0, 2.0], requires_grad=True)
a, b = Split.apply(x)
a.sum().backward()
print(x.grad)
x.grad = None
a, b = SplitLazy.apply(x)
a.sum().backward()
print(x.grad)
x.grad = None
a, b = SplitLazy.apply(x)
(a + b).sum().backward()
print(x.grad)
x.grad = None
v, i = SortFn.apply(x)
print(v, i, i.requires_grad)
(v * torch.tensor([1.0, 10.0, 100.0])).sum().backward()
print(x.grad)
