# source: original
# topic: nll_loss and cross_entropy on image-shaped (N, C, H, W) and 3-D inputs: NllLoss2DBackward0, reductions, weights, ignore_index, label smoothing, probability targets, errors
# compare: exact
# visibility: public
import torch
import torch.nn.functional as F
logits = torch.tensor([[[[1.0, -1.0], [0.5, 2.0]], [[0.0, 1.0], [1.5, -0.5]], [[2.0, 0.0], [-1.0, 0.5]]],
                       [[[0.3, 0.2], [0.1, -0.2]], [[1.0, 1.0], [0.0, 0.0]], [[-1.0, 2.0], [0.5, 0.5]]]], requires_grad=True)
target = torch.tensor([[[0, 1], [2, 1]], [[2, 2], [0, 1]]])
for kw in ({}, {"reduction": "sum"}, {"reduction": "none"}, {"ignore_index": 1}, {"weight": torch.tensor([1.0, 2.0, 0.5])},
           {"label_smoothing": 0.1}, {"weight": torch.tensor([1.0, 2.0, 0.5]), "reduction": "none", "ignore_index": 2}):
    logits.grad = None
    loss = F.cross_entropy(logits, target, **kw)
    print(kw, loss)
    loss.sum().backward()
    print(logits.grad)
lp = F.log_softmax(logits, dim=1)
l = F.nll_loss(lp, target)
print(l, l.grad_fn, l.grad_fn.next_functions)
l3 = F.nll_loss(lp[:, :, 0], target[:, 0], reduction="none")
print(l3, l3.grad_fn)
print(torch.nn.CrossEntropyLoss()(logits, target))
probs = torch.softmax(logits.detach(), 1)
print(F.cross_entropy(logits, probs))
for bad in (target[:, :1], target.float()):
    try:
        F.nll_loss(lp, bad)
    except RuntimeError as e:
        print("RuntimeError", e)
