# source: original
# topic: nn
# compare: exact
# visibility: public
# SmoothL1Loss and HuberLoss: quadratic near the target, linear far from it.
import torch
import torch.nn as nn
import torch.nn.functional as F
pred = torch.tensor([0.5, 1.5, 3.0, -1.0], requires_grad=True)
target = torch.ones(4)
for loss_fn in [nn.SmoothL1Loss(), nn.SmoothL1Loss(beta=0.5), nn.HuberLoss(delta=2.0),
                nn.SmoothL1Loss(reduction="sum"), nn.HuberLoss(reduction="none")]:
    pred.grad = None
    loss = loss_fn(pred, target)
    loss.sum().backward()
    print(loss_fn, loss, pred.grad)
loss = F.smooth_l1_loss(pred, target, beta=0.25)
print(loss, loss.grad_fn._saved_beta)
print(F.huber_loss(pred, target, delta=0.3))
