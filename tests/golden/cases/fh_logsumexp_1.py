# source: original
# topic: grad-fn
# compare: exact
# visibility: public
# torch.logsumexp (LogsumexpBackward0): stable for large inputs; its gradient is a softmax.
import torch
x = torch.tensor([[1.0, 2.0, 3.0], [1000.0, 1000.0, -1000.0]], requires_grad=True)
for dim, keep in [(0, False), (1, False), (1, True), (-1, False), ((0, 1), False)]:
    x.grad = None
    y = torch.logsumexp(x, dim=dim, keepdim=keep)
    y.sum().backward()
    print(y, x.grad)
print(x.logsumexp(1), x.logsumexp(dim=0, keepdim=True))
t = torch.tensor(2.0, requires_grad=True)
print(torch.logsumexp(t, 0))
print(torch.logsumexp(torch.tensor([-float('inf'), -float('inf')]), 0))
g, = torch.autograd.grad(torch.logsumexp(x, 1).sum(), x, create_graph=True)
print(g.sum())
print(torch.logsumexp(torch.tensor([1, 2]), 0))
