# source: original
# topic: distances
# compare: exact
# visibility: public
# torch.cdist (p = 2, 1, inf, 3) with its gradients and errors, and F.gumbel_softmax, soft and
# hard, seeded.
import torch
import torch.nn.functional as F

a = torch.tensor([[0., 0.], [3., 4.]], requires_grad=True)
b = torch.tensor([[1., 0.], [0., 1.], [6., 8.]], requires_grad=True)
d = torch.cdist(a, b)
print(d)
d.sum().backward()
print(a.grad, b.grad)
for p in (1.0, float("inf"), 3.0):
    a.grad = b.grad = None
    d = torch.cdist(a, b, p=p)
    print(d)
    (d * torch.tensor([[1., 2, 3], [4, 5, 6]])).sum().backward()
    print(a.grad, b.grad)
print(torch.cdist(torch.ones(2, 1, 3), torch.zeros(2, 2, 3)))
for x1, x2 in ((torch.ones(3), torch.ones(2, 3)), (torch.ones(2, 2), torch.ones(2, 3))):
    try:
        torch.cdist(x1, x2)
    except RuntimeError as e:
        print("RuntimeError", e)
torch.manual_seed(0)
logits = torch.tensor([[1., 2., 3.], [0.5, 0.5, -1.]], requires_grad=True)
g = F.gumbel_softmax(logits, tau=0.5)
print(g)
h = F.gumbel_softmax(logits, tau=1, hard=True)
print(h)
(g.sum() + (h * torch.tensor([1., 2, 3])).sum()).backward()
print(logits.grad)
print(F.gumbel_softmax(torch.zeros(2, 3), dim=0, hard=True))
