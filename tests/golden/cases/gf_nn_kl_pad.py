# source: original
# topic: nn-losses
# compare: exact
# visibility: public
# F.kl_div / nn.KLDivLoss in every reduction, with and without log_target (xlogy or exp
# composites), 'mean''s warning; F.pad in constant mode (ConstantPadNdBackward0, its unsigned
# saved pad), cropping, its gradient and its errors; torch.xlogy.
import torch
import torch.nn as nn
import torch.nn.functional as F


def walk(fn, depth=0):
    if fn is None:
        print("  " * depth + "None")
        return
    print("  " * depth + type(fn).__name__)
    for nxt, _ in fn.next_functions:
        walk(nxt, depth + 1)


inp = torch.tensor([[-1.2, -0.5, -2.0], [-0.3, -1.7, -0.9]], requires_grad=True)
tgt = torch.tensor([[0.2, 0.5, 0.3], [0.0, 0.6, 0.4]], requires_grad=True)
for reduction in ["none", "sum", "mean", "batchmean"]:
    for log_target in [False, True]:
        inp.grad = tgt.grad = None
        loss = F.kl_div(inp, tgt, reduction=reduction, log_target=log_target)
        print(reduction, log_target, loss.tolist())
        walk(loss.grad_fn)
        loss.sum().backward()
        print(inp.grad.tolist(), tgt.grad.tolist())
crit = nn.KLDivLoss(reduction="batchmean", log_target=True)
print(crit, crit.reduction, crit.log_target, crit(inp, tgt.log()))
try:
    F.kl_div(inp, tgt, reduction="avg")
except ValueError as e:
    print("ValueError", e)

x = torch.tensor([[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]], requires_grad=True)
y = F.pad(x, (1, 2, 0, 1), value=0.5)
print(y, y.grad_fn._saved_pad)
walk(y.grad_fn)
y.backward(torch.arange(18.0).reshape(3, 6))
print(x.grad)
y = F.pad(x, (-1, 1))
print(y, y.grad_fn._saved_pad)
print(F.pad(x, (1, 1, 1, 1)).shape, F.pad(torch.tensor([1, 2]), (1, 1), value=2.7))
for pad in [(1,), (1, 1, 1, 1, 1, 1), (-2, -2)]:
    try:
        F.pad(x, pad)
    except RuntimeError as e:
        print("RuntimeError", e)
try:
    F.pad(x, (1, 1), mode="wrap")
except NotImplementedError as e:
    print("NotImplementedError", e)

p = torch.tensor([0.0, 2.0, 1.0, 0.5], requires_grad=True)
q = torch.tensor([0.0, 3.0, 0.25, 1.5], requires_grad=True)
r = torch.xlogy(p, q)
print(r, r.tolist())
r.sum().backward()
print(p.grad, q.grad)
