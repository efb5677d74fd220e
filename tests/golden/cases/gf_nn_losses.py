# source: original
# topic: grad-fn
# compare: exact
# visibility: public
# Losses: values, node names, next_functions, saved attributes and the gradients they send back.
import torch
import torch.nn as nn
import torch.nn.functional as F

x = torch.tensor([[0.2, -1.3, 0.7], [1.5, 0.1, -0.4], [-0.6, 0.9, 2.2], [0.05, -0.25, 0.5]],
                 requires_grad=True)
t = torch.tensor([[0.0, 1.0, 0.5], [1.0, 0.0, 0.25], [0.3, 0.3, 1.0], [0.9, 0.1, 0.0]])
cls = torch.tensor([2, 0, 1, 2])
w3 = torch.tensor([0.5, 2.0, 1.0])


def report(label, loss):
    fn = loss.grad_fn
    nxt = [None if f is None else type(f).__name__ for f, _ in fn.next_functions]
    print(label, loss, nxt)
    x.grad = None
    (loss.sum() if loss.dim() else loss).backward()
    print(x.grad)


for reduction in ("mean", "sum", "none"):
    report("mse " + reduction, F.mse_loss(x, t, reduction=reduction))
    report("bce-logits " + reduction,
           F.binary_cross_entropy_with_logits(x, t, reduction=reduction))
    report("bce " + reduction, F.binary_cross_entropy(torch.sigmoid(x), t, reduction=reduction))
    report("ce " + reduction, F.cross_entropy(x, cls, reduction=reduction))
    report("nll " + reduction, F.nll_loss(F.log_softmax(x, 1), cls, reduction=reduction))
report("bce-logits weighted", F.binary_cross_entropy_with_logits(
    x, t, weight=w3, pos_weight=torch.tensor([1.5, 0.5, 3.0])))
report("bce weighted", F.binary_cross_entropy(torch.sigmoid(x), t, weight=w3))
report("ce weighted ignore", nn.CrossEntropyLoss(weight=w3, ignore_index=0)(x, cls))
report("ce probabilities", F.cross_entropy(x, torch.softmax(t, 1)))
report("ce one sample", F.cross_entropy(x[1], cls[1]))
report("l1", F.l1_loss(x, t))
report("leaky relu", F.leaky_relu(x, 0.1).sum())
loss = F.nll_loss(x, cls)
print(loss.grad_fn._saved_reduction, loss.grad_fn._saved_ignore_index,
      loss.grad_fn._saved_total_weight, loss.grad_fn._saved_weight)
loss = F.mse_loss(x, t, reduction="sum")
print(loss.grad_fn._saved_reduction, loss.grad_fn._saved_target)
y = torch.tensor([0.5, 0.0, 1.0], requires_grad=True)
loss = F.binary_cross_entropy(torch.tensor([0.25, 0.5, 0.75]), y)
loss.backward()
print(loss, y.grad)
print(F.binary_cross_entropy(torch.tensor([0.0, 1.0]), torch.tensor([1.0, 0.0]), reduction="none"))
print(F.binary_cross_entropy_with_logits(torch.tensor([100.0, -100.0]), torch.tensor([0.0, 1.0])))
