# source: original
# topic: grad-fn
# compare: exact
# visibility: public
# torch.autograd.gradcheck / gradgradcheck (True, False, or GradcheckError with both
# Jacobians printed; a warning for float32 inputs), and jacobian's strategy/vectorize options:
# forward mode gives lists for tuple inputs, and the refused combinations in PyTorch's words.
import torch
from torch.autograd import gradcheck, gradgradcheck
from torch.autograd.functional import hessian, jacobian


class LeakyExp(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        y = x.exp()
        ctx.save_for_backward(y)
        return y

    @staticmethod
    def backward(ctx, g):
        (y,) = ctx.saved_tensors
        return g * y * 1.1          # deliberately wrong


x = torch.tensor([0.5, -1.0], dtype=torch.double, requires_grad=True)
y = torch.tensor([2.0, 3.0], dtype=torch.double, requires_grad=True)
print(gradcheck(torch.sin, (x,)), gradcheck(torch.sin, x))
print(gradcheck(lambda a, b: a * b.exp(), (x, y)))
print(gradcheck(lambda t: t.sum(dim=0), (torch.ones(2, 3, dtype=torch.double,
                                                     requires_grad=True),)))
print(gradcheck(LeakyExp.apply, (x,), raise_exception=False))
print(gradcheck(LeakyExp.apply, (x,), atol=0.5, rtol=0.5))
try:
    gradcheck(LeakyExp.apply, (x,))
except RuntimeError as e:
    print(type(e).__name__, e)
try:
    gradcheck(torch.sin, (torch.ones(2, dtype=torch.double),))
except ValueError as e:
    print(e)
print(gradcheck(torch.sin, (torch.tensor([0.5, -1.0], requires_grad=True),), eps=1e-3,
                atol=1e-2))
torch.manual_seed(0)
print(gradgradcheck(lambda t: (t ** 3).sum() * t, (x,)))
print(torch.randn(3))
print(gradgradcheck(lambda a, b: a * b.exp(), (x, y)))


def f(a, b):
    return a ** 2 * b, a + b


a = torch.tensor([1.0, 2.0])
b = torch.tensor([3.0, 4.0])
print(jacobian(f, (a, b), strategy="forward-mode", vectorize=True))
print(jacobian(lambda t: (t * 2, t.sum()), a, strategy="forward-mode", vectorize=True))
print(jacobian(lambda s, t: s * t, (a, b), strategy="forward-mode", vectorize=True))
print(jacobian(lambda t: t.exp(), a, strategy="forward-mode", vectorize=True))
print(jacobian(f, (a, b), vectorize=True))
for options in [dict(strategy="forward-mode"), dict(strict=True, vectorize=True),
                dict(create_graph=True, strategy="forward-mode", vectorize=True),
                dict(strict=True, strategy="forward-mode", vectorize=True)]:
    try:
        jacobian(f, (a, b), **options)
    except (RuntimeError, NotImplementedError) as e:
        print(type(e).__name__, e)
try:
    hessian(lambda t: (t ** 3).sum(), a, outer_jacobian_strategy="forward-mode")
except NotImplementedError as e:
    print(e)
