# source: original
# topic: optimizers
# compare: exact
# visibility: public
# An old tutorial's hand-written SGD step: the learning rate comes first, in the deprecated
# add_(alpha, other) form. PyTorch runs it and warns once for every such overload together.
import torch

torch.manual_seed(0)
x = torch.randn(8, 2)
y = x @ torch.tensor([[2.0], [-1.0]]) + 0.5
w = torch.zeros(2, 1, requires_grad=True)
b = torch.zeros(1, requires_grad=True)
lr = 0.1
for epoch in range(3):
    loss = ((x @ w + b - y) ** 2).mean()
    loss.backward()
    with torch.no_grad():
        w.add_(-lr, w.grad)
        b.data.sub_(lr, b.grad)
    w.grad.zero_()
    b.grad.zero_()
    print(epoch, round(loss.item(), 4), w.view(-1), b)

t = torch.tensor([1.0, 2.0])
print(t.addcmul(0.5, t, t), torch.addcdiv(t, 2, t, t + 1), torch.add(t, 3, t))
print(t.add(torch.tensor(2.0), t), t.add(2, other=t), t.sub(alpha=2, other=t))
z = t.clone().requires_grad_()
out = z.add(3, z * z)
print(out, out.grad_fn.name())
for bad in (lambda: t.add(t, 2), lambda: t.add(2, t, alpha=3), lambda: t.add(True, t),
            lambda: torch.tensor([1, 2]).add(2.5, torch.tensor([1, 2])),
            lambda: torch.tensor([1, 2]).add(torch.tensor([1, 2]), alpha=0.5),
            lambda: torch.add(t, t, 2)):
    try:
        bad()
    except (TypeError, RuntimeError) as e:
        print(type(e).__name__, str(e).splitlines()[0])
