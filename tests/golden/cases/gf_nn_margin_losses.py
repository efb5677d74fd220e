# source: original
# topic: nn
# compare: exact
# visibility: public
# The margin and embedding losses: F.margin_ranking_loss, F.hinge_embedding_loss,
# F.soft_margin_loss and F.cosine_embedding_loss with each reduction, the grad_fn chains
# PyTorch's C++ compositions record (AddBackward1, SubBackward0, ClampMinBackward0 ...),
# gradients, SoftMarginLoss's own node and its second derivative, the nn modules training
# a small embedding, legacy size_average/reduce, and their errors.
import torch
import torch.nn as nn
import torch.nn.functional as F


def names(t):
    out, stack, seen = [], [t.grad_fn], set()
    while stack:
        f = stack.pop()
        if f is None or f in seen:
            continue
        seen.add(f)
        out.append(type(f).__name__)
        stack.extend(g for g, _ in reversed(f.next_functions))
    return out


a = torch.tensor([0.5, -1.0, 2.0, 0.1], requires_grad=True)
b = torch.tensor([1.0, 0.5, -0.3, 0.1], requires_grad=True)
y = torch.tensor([1.0, -1.0, 1.0, -1.0])
for red in ["mean", "sum", "none"]:
    for loss in [F.margin_ranking_loss(a, b, y, margin=0.2, reduction=red),
                 F.hinge_embedding_loss(a, y, margin=1.5, reduction=red),
                 F.soft_margin_loss(a, y, reduction=red)]:
        print(loss, names(loss))
F.margin_ranking_loss(a, b, y).backward()
print(a.grad, b.grad)
a.grad = None
F.hinge_embedding_loss(a, y).backward()
print(a.grad)
a.grad = None
loss = F.soft_margin_loss(a, y)
print(loss.grad_fn._saved_reduction, loss.grad_fn._saved_target)
g, = torch.autograd.grad(loss, a, create_graph=True)
print(g, type(g.grad_fn).__name__)
h, = torch.autograd.grad(g.sum(), a)
print(h)

x1 = torch.tensor([[1.0, 2.0, -1.0], [0.5, 0.1, 0.3], [0.0, 1.0, 0.0]], requires_grad=True)
x2 = torch.tensor([[0.3, -2.0, 1.0], [0.5, 0.2, 0.2], [1.0, 0.0, 0.0]], requires_grad=True)
t = torch.tensor([1, -1, -1])
for red in ["mean", "sum", "none"]:
    loss = F.cosine_embedding_loss(x1, x2, t, margin=0.1, reduction=red)
    print(loss, names(loss))
F.cosine_embedding_loss(x1, x2, t).backward()
print(x1.grad, x2.grad)
print(F.cosine_embedding_loss(x1[0], x2[0], torch.tensor(1)))
print(F.hinge_embedding_loss(a, y, size_average=False), F.soft_margin_loss(a, y, reduce=False))

print(nn.MarginRankingLoss(margin=0.5), nn.HingeEmbeddingLoss(2.0), nn.SoftMarginLoss(),
      nn.CosineEmbeddingLoss(0.2, reduction="sum"))
emb = nn.Embedding(4, 3)
with torch.no_grad():
    emb.weight.copy_(torch.tensor([[0.5, -0.2, 0.1], [0.3, 0.8, -0.5], [-1.0, 0.2, 0.4],
                                   [0.0, 0.6, 0.9]]))
opt = torch.optim.SGD(emb.parameters(), lr=0.5)
crit = nn.CosineEmbeddingLoss(margin=0.2)
left, right = torch.tensor([0, 1, 2]), torch.tensor([1, 3, 0])
same = torch.tensor([1, -1, 1])
for step in range(3):
    opt.zero_grad()
    loss = crit(emb(left), emb(right), same)
    loss.backward()
    opt.step()
    print(step, loss)
print(emb.weight)
rank = nn.MarginRankingLoss(margin=0.1)
print(rank(a, b, y), nn.HingeEmbeddingLoss()(a, y), nn.SoftMarginLoss(reduction="sum")(a, y))

for bad in [lambda: F.margin_ranking_loss(a, b, y[None]),
            lambda: F.margin_ranking_loss(a, b[:2], y),
            lambda: F.cosine_embedding_loss(x1, x2, t[None]),
            lambda: F.cosine_embedding_loss(x1[0], x2[0], t),
            lambda: F.cosine_embedding_loss(x1, x2, torch.tensor(1)),
            lambda: F.cosine_embedding_loss(x1, x2, torch.tensor([1, -1])),
            lambda: F.hinge_embedding_loss(a, y[:2]),
            lambda: F.soft_margin_loss(a, y.clone().requires_grad_()),
            lambda: F.soft_margin_loss(torch.tensor([1, 2]), torch.tensor([1, -1])),
            lambda: F.hinge_embedding_loss(a, y, reduction="avg")]:
    try:
        bad()
    except (RuntimeError, ValueError) as e:
        print(type(e).__name__, e)
