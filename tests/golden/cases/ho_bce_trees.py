# source: original
# topic: higher-order
# compare: exact
# visibility: public
# binary_cross_entropy differentiates through PyTorch's binary_cross_entropy_backward kernel
# (BinaryCrossEntropyBackwardBackward0, three inputs) and its double-backward formulas (the
# eps-shifted denominators, add.Scalar nodes, the Scalar division of a mean): graphs and values.
import torch
import torch.nn.functional as F
def walk(fn, depth=0, out=None):
    out = [] if out is None else out
    if fn is None or depth > 6: return out
    out.append("  " * depth + type(fn).__name__ + str(len(fn.next_functions)))
    for f, _ in fn.next_functions: walk(f, depth + 1, out)
    return out
t = torch.tensor([0.0, 1.0, 0.3, 1.0])
for kw in ({}, {"reduction": "sum"}, {"weight": torch.tensor([1.0, 2.0, 0.5, 1.0])}, {"reduction": "none"}):
    p = torch.tensor([0.2, 0.7, 0.5, 0.9], requires_grad=True)
    y = F.binary_cross_entropy(p, t, **kw)
    g, = torch.autograd.grad(y.sum(), p, create_graph=True)
    print(kw, g.tolist()); print("\n".join(walk(g.grad_fn)))
    n = g.grad_fn
    print(n._saved_reduction, n._saved_weight, n._saved_self.shape, n._saved_target.shape)
    h, = torch.autograd.grad((g * torch.tensor([1.0, 2.0, 3.0, 4.0])).sum(), p, create_graph=True)
    print(" h", h.tolist()); print("\n".join(walk(h.grad_fn)))
tt = torch.tensor([0.0, 1.0, 0.3, 1.0], requires_grad=True)
p = torch.tensor([0.2, 0.7, 0.5, 0.9], requires_grad=True)
y = F.binary_cross_entropy(p, tt)
g, = torch.autograd.grad(y, p, create_graph=True)
a, b = torch.autograd.grad(g.sum(), (p, tt))
print(a.tolist(), b.tolist())
