# source: original
# topic: nn-losses
# compare: exact
# visibility: public
# cross_entropy with label_smoothing: PyTorch's composite ((1 - eps) * nll + eps / C * smooth
# loss, AddBackward0 over MulBackward1), with weights, ignore_index, every reduction and
# probability targets; the out-of-range error.
import torch
import torch.nn as nn
import torch.nn.functional as F

x = torch.tensor([[0.5, -1.3, 2.0], [0.1, 0.2, 0.3], [1.0, 0.0, -1.0]], requires_grad=True)
t = torch.tensor([2, 0, 1])
w = torch.tensor([1.0, 2.0, 0.5])
for kw in ({}, {"reduction": "sum"}, {"reduction": "none"}, {"weight": w},
           {"ignore_index": 0}, {"weight": w, "ignore_index": 1}):
    y = F.cross_entropy(x, t, label_smoothing=0.1, **kw)
    x.grad = None
    y.sum().backward()
    print(kw, y, x.grad)
y = F.cross_entropy(x, t, label_smoothing=0.25)
node = y.grad_fn
print(type(node).__name__, [type(f).__name__ for f, _ in node.next_functions])
print([type(f).__name__ for f, _ in node.next_functions[1][0].next_functions])
p = torch.tensor([[0.2, 0.3, 0.5], [1.0, 0.0, 0.0], [0.0, 0.5, 0.5]])
print(F.cross_entropy(x, p, label_smoothing=0.2))
print(F.cross_entropy(x[0], t[0], label_smoothing=0.3))
print(F.cross_entropy(x, t, label_smoothing=-0.1))
loss = nn.CrossEntropyLoss(label_smoothing=0.1)
print(loss, loss(x, t))
g, = torch.autograd.grad(F.cross_entropy(x, t, label_smoothing=0.1), x, create_graph=True)
print(type(g.grad_fn).__name__, type(g.grad_fn.next_functions[0][0]).__name__)
for target in (t, p):
    try:
        F.cross_entropy(x, target, label_smoothing=1.5)
    except RuntimeError as e:
        print("RuntimeError", e)
