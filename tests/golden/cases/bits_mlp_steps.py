# source: original
# topic: numerics
# compare: exact
# visibility: public
# A learner's first networks printed to the last bit: an XOR MLP (Linear(2, 8), ReLU,
# Linear(8, 2), cross-entropy, Adam) whose products are (4 x 2) @ (2 x 8), its gradients
# (2 x 4) @ (4 x 8) with a transposed first operand, and a Linear(3, 1) logistic regression
# on a batch of 32 (a matrix times a vector of 32 rows, and its transposed weight gradient).
import torch
import torch.nn as nn


def grid(rows, cols, scale, shift=0.0):
    return (((torch.arange(rows * cols * 1.0) * 7 + shift) % 19 - 9) / scale).reshape(rows, cols)


X = torch.tensor([[0., 0.], [0., 1.], [1., 0.], [1., 1.]])
y = torch.tensor([0, 1, 1, 0])
model = nn.Sequential(nn.Linear(2, 8), nn.ReLU(), nn.Linear(8, 2))
with torch.no_grad():
    model[0].weight.copy_(grid(8, 2, 9.7, 1.0))
    model[0].bias.copy_(grid(1, 8, 31.0, 4.0)[0])
    model[2].weight.copy_(grid(2, 8, 11.3, 2.0))
    model[2].bias.copy_(grid(1, 2, 23.0, 5.0)[0])
opt = torch.optim.Adam(model.parameters(), lr=0.05)
lossf = nn.CrossEntropyLoss()
for epoch in range(6):
    opt.zero_grad()
    out = model(X)
    loss = lossf(out, y)
    loss.backward()
    print(epoch, loss.item(), out.tolist())
    for name, p in model.named_parameters():
        print(" ", name, p.grad.flatten().tolist())
    opt.step()

# logistic regression: Linear(3, 1) on 32 fixed samples, two SGD steps (a third would meet
# PyTorch's vectorised sigmoid, 1 / (1 + exp(-x)) with its own float32 exp, in the backward)
reg = nn.Linear(3, 1)
with torch.no_grad():
    reg.weight.copy_(grid(1, 3, 7.3, 2.0))
    reg.bias.fill_(-0.25)
xs = grid(32, 3, 4.1, 3.0)
ys = (grid(32, 1, 1.0, 6.0) > 0).float()
sgd = torch.optim.SGD(reg.parameters(), lr=0.3)
bce = nn.BCEWithLogitsLoss()
for step in range(2):
    sgd.zero_grad()
    logits = reg(xs)
    loss = bce(logits, ys)
    loss.backward()
    print(step, loss.item(), reg.weight.grad.tolist(), reg.bias.grad.tolist())
    sgd.step()
print(reg(xs).flatten().tolist())
print(torch.mv(xs, reg.weight[0].detach()).tolist())

# a single sample with one feature: mat1 is 1 x 1, its gradient (w.t() @ grad.t()).t()
one = nn.Linear(1, 5)
with torch.no_grad():
    one.weight.copy_(grid(5, 1, 3.3, 1.0))
    one.bias.copy_(grid(1, 5, 4.7)[0])
x1 = torch.tensor([[0.7]], requires_grad=True)
(one(x1) * grid(1, 5, 2.9, 3.0)).sum().backward()
print(x1.grad.tolist(), one.weight.grad.flatten().tolist())

# matrix times vector: Linear(20, 1) on 6 samples (20 terms: two passes of lanes), and weight
# gradients along the outputs: Linear(1, 16) on a batch of 12, Linear(20, 1) on a batch of 20
head = nn.Linear(20, 1)
with torch.no_grad():
    head.weight.copy_(grid(1, 20, 5.3, 2.0))
    head.bias.fill_(0.125)
h = grid(6, 20, 3.7, 1.0)
print(head(h).flatten().tolist())
wide = nn.Linear(1, 16)
with torch.no_grad():
    wide.weight.copy_(grid(16, 1, 4.9, 3.0))
    wide.bias.copy_(grid(1, 16, 6.1)[0])
(wide(grid(12, 1, 2.3, 5.0)) * grid(12, 16, 3.1, 2.0)).sum().backward()
print(wide.weight.grad.flatten().tolist())
(head(grid(20, 20, 2.9, 4.0)) * grid(20, 1, 1.7, 3.0)).sum().backward()
print(head.weight.grad.flatten().tolist())
