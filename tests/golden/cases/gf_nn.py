# source: original
# topic: grad-fn
# compare: exact
# visibility: public
# grad_fn classes of nn layers and losses.
import torch
import torch.nn as nn
import torch.nn.functional as F

x = torch.tensor([[0.5, -1.0], [2.0, 0.25]])
lin = nn.Linear(2, 3)
with torch.no_grad():
    lin.weight.copy_(torch.tensor([[0.1, 0.2], [-0.3, 0.4], [0.5, -0.6]]))
    lin.bias.copy_(torch.tensor([0.0, 0.1, -0.1]))
h = lin(x)
print(type(h.grad_fn).__name__, h)
print(type(lin(x[0]).grad_fn).__name__)
print(type(nn.Linear(2, 3, bias=False)(x).grad_fn).__name__)
print(type(F.relu(h).grad_fn).__name__, type(nn.ReLU()(h).grad_fn).__name__)
print(type(nn.Tanh()(h).grad_fn).__name__, type(nn.Sigmoid()(h).grad_fn).__name__)
print(type(F.sigmoid(h).grad_fn).__name__, type(F.tanh(h).grad_fn).__name__)
print(type(F.softmax(h, dim=1).grad_fn).__name__, type(F.log_softmax(h, dim=1).grad_fn).__name__)
target = torch.tensor([[0.0, 1.0, 0.5], [1.0, 0.0, 0.0]])
labels = torch.tensor([2, 0])
for label, loss in [("mse", nn.MSELoss()(h, target)), ("F.mse", F.mse_loss(h, target)),
                    ("bce logits", nn.BCEWithLogitsLoss()(h, target)),
                    ("F.bce logits", F.binary_cross_entropy_with_logits(h, target)),
                    ("bce", F.binary_cross_entropy(torch.sigmoid(h), target)),
                    ("ce", nn.CrossEntropyLoss()(h, labels)),
                    ("F.ce", F.cross_entropy(h, labels)),
                    ("nll", F.nll_loss(F.log_softmax(h, dim=1), labels))]:
    print(label, type(loss.grad_fn).__name__, loss)
print(nn.Sequential(lin, nn.ReLU())(x))
