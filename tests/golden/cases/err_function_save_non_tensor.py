# source: original
# topic: ctx.save_for_backward takes tensors and None only; anything else fails once forward
#   returns, and only when the call is recorded for backward
# compare: exact
# visibility: public
import torch


class SaveNumber(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x, scale):
        ctx.save_for_backward(x, None, scale)
        return x * scale

    @staticmethod
    def backward(ctx, g):
        x, _, scale = ctx.saved_tensors
        return g * scale, None


print(SaveNumber.apply(torch.ones(2), 3.0))
with torch.no_grad():
    print(SaveNumber.apply(torch.ones(2, requires_grad=True), 3.0))
x = torch.ones(2, requires_grad=True)
try:
    SaveNumber.apply(x, 3.0)
except TypeError as e:
    print(e)
y = SaveNumber.apply(x, torch.tensor(3.0))
y.sum().backward()
print(y, x.grad)
SaveNumber.apply(x, "3")
