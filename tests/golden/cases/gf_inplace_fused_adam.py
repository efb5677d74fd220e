# source: original
# topic: grad-fn
# compare: exact
# visibility: public
# Adam written by hand, as learners write it: exp_avg.mul_().add_(), exp_avg_sq.mul_()
# .addcmul_(), p.addcdiv_() under no_grad, beside torch.optim.Adam on the same problem; then
# addcmul_, addcdiv_ and lerp_ on tensors in a graph (their nodes) and their errors.
import math

import torch

w0 = torch.tensor([0.5, -1.5, 2.0, 0.25])
target = torch.tensor([1.0, 0.0, -1.0, 0.5])
p = w0.clone().requires_grad_(True)
m = torch.zeros(4)
v = torch.zeros(4)
lr, b1, b2, eps = 0.1, 0.9, 0.999, 1e-8
for step in range(1, 6):
    loss = ((p - target) ** 2).sum()
    p.grad = None
    loss.backward()
    with torch.no_grad():
        m.mul_(b1).add_(p.grad, alpha=1 - b1)
        v.mul_(b2).addcmul_(p.grad, p.grad, value=1 - b2)
        denom = (v.sqrt() / math.sqrt(1 - b2 ** step)).add_(eps)
        p.addcdiv_(m, denom, value=-lr / (1 - b1 ** step))
    print(step, loss.item(), p.tolist())
q = w0.clone().requires_grad_(True)
opt = torch.optim.Adam([q], lr=lr)
for step in range(5):
    opt.zero_grad()
    ((q - target) ** 2).sum().backward()
    opt.step()
print("optim.Adam", q.tolist())

x = torch.tensor([1.0, 2.0, 3.0], requires_grad=True)
y = x * 1
y.addcmul_(x, torch.tensor([2.0, 2.0, 2.0]), value=0.5)
print(y)
z = x * 1
z.addcdiv_(torch.tensor([1.0, 2.0, 4.0]), x)
print(z)
u = x * 1
u.lerp_(torch.tensor([0.0, 0.0, 0.0]), 0.25)
print(u)
u.lerp_(x, torch.tensor([0.5, 0.5, 0.5]))
print(u)
(y.sum() + z.sum() + u.sum()).backward()
print(x.grad)
for name, f in [("addcdiv_ ints", lambda: torch.ones(2).addcdiv_(torch.ones(2, dtype=torch.long),
                                                                torch.ones(2, dtype=torch.long))),
                ("lerp_ ints", lambda: torch.ones(2, dtype=torch.long).lerp_(torch.ones(2), 0.5)),
                ("lerp dtypes", lambda: torch.lerp(torch.ones(2), torch.ones(2), x.double())),
                ("lerp int kernel", lambda: torch.lerp(torch.ones(2, dtype=torch.long),
                                                       torch.ones(2, dtype=torch.long), 0.5)),
                ("leaf", lambda: x.addcmul_(x, x))]:
    try:
        f()
    except RuntimeError as e:
        print(name, "RuntimeError", e)
    except NotImplementedError as e:
        print(name, "NotImplementedError", e)
