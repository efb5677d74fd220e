# source: original
# topic: nn-functional
# compare: exact
# visibility: public
# F.cosine_similarity and F.pairwise_distance (and their modules): values to the last bit, the
# composite graphs ATen records (cloned norms, an untracked clamp, NormBackward1 over
# AddBackward1), broadcasting, gradients, zero vectors and the errors.
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


a = torch.tensor([[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]], requires_grad=True)
b = torch.tensor([[1.0, 0.5, -1.0], [2.0, 5.0, 0.0]], requires_grad=True)
y = F.cosine_similarity(a, b)
print(y, y.tolist())
walk(y.grad_fn)
print(y.grad_fn._saved_dim, y.grad_fn._saved_keepdim)
y.sum().backward()
print(a.grad.tolist())
print(b.grad.tolist())

y = F.cosine_similarity(a, b[0], dim=-1, eps=1e-6)
print(y.tolist())
walk(y.grad_fn)
print(F.cosine_similarity(a, b, dim=0).tolist())
z = F.cosine_similarity(a, torch.zeros(2, 3))
print(z)
a.grad = None
z.sum().backward()
print(a.grad)

for p in [2.0, 1.0, float("inf"), 0.0]:
    a.grad = b.grad = None
    d = F.pairwise_distance(a, b, p=p)
    print(p, d.tolist(), type(d.grad_fn).__name__, d.grad_fn._saved_p, d.grad_fn._saved_dim)
    (d * torch.tensor([1.0, -2.0])).sum().backward()
    print(a.grad, b.grad)
d = F.pairwise_distance(a, b, keepdim=True, eps=0.0)
print(d)
walk(d.grad_fn)
print(F.pairwise_distance(a, b[1]).tolist())
print(F.pairwise_distance(torch.tensor([3.0, 4.0]), torch.tensor([0.0, 0.0]), eps=0))

cos, pdist = nn.CosineSimilarity(dim=0, eps=1e-6), nn.PairwiseDistance(p=1.0, keepdim=True)
print(cos, pdist, cos.dim, cos.eps, pdist.norm, pdist.eps, pdist.keepdim)
print(cos(a[0], b[0]), pdist(a, b))

for fn in [lambda: F.cosine_similarity(a, torch.ones(3, 3)),
           lambda: F.pairwise_distance(a, torch.ones(3, 3)),
           lambda: F.cosine_similarity(torch.tensor([1, 2]), torch.tensor([3, 4]))]:
    try:
        fn()
    except RuntimeError as e:
        print("RuntimeError", e)
