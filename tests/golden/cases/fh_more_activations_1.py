# source: original
# topic: nn-functional
# compare: exact
# visibility: public
# relu6 (hardtanh 0..6), softmin (softmax of -x, with the implicit-dim warning), softsign,
# tanhshrink and normalize as PyTorch composes them, and their modules' reprs.
import torch
import torch.nn as nn
import torch.nn.functional as F
def walk(fn, depth=0, out=None):
    out = [] if out is None else out
    if fn is None or depth > 4: return out
    out.append("  " * depth + type(fn).__name__ + str(len(fn.next_functions)))
    for f, _ in fn.next_functions: walk(f, depth + 1, out)
    return out
for f in (F.relu6, lambda x: F.softmin(x, dim=1), F.softsign, F.tanhshrink, F.normalize, lambda x: F.normalize(x, p=1, dim=0), lambda x: F.softmin(x)):
    x = torch.tensor([[0.5, -1.3, 7.0], [0.1, 0.2, -0.3]], requires_grad=True)
    y = f(x)
    print(y); print("\n".join(walk(y.grad_fn)))
    (y * torch.tensor([1.0, 2.0, 3.0])).sum().backward(); print(x.grad)
print(nn.ReLU6(), nn.ReLU6(inplace=True), nn.Softmin(dim=1), nn.Softmin(), nn.Softsign(), nn.Tanhshrink())
m = nn.Sequential(nn.Linear(3, 2), nn.ReLU6(), nn.Softmin(dim=1))
print(m)
