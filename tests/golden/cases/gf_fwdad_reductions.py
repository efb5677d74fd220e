# source: original
# topic: forward-mode tangents through sum and mean (all, over a dim, keepdim), views
#   (view, reshape, transpose, unsqueeze, expand), cat, stack and indexing
# compare: exact
# visibility: public
import torch
import torch.autograd.forward_ad as fwAD

X = torch.tensor([[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]])
T = torch.tensor([[0.5, -1.0, 0.0], [2.0, 0.25, 1.0]])
with fwAD.dual_level():
    x = fwAD.make_dual(X, T)
    print(x.sum())
    print(x.sum(0))
    print(x.sum(1, keepdim=True))
    print(x.mean())
    print(x.mean(1))
    print(x.mean(dim=0, keepdim=True))
    print(x.view(3, 2))
    print(x.reshape(-1))
    print(x.transpose(0, 1))
    print(x.unsqueeze(0).shape, fwAD.unpack_dual(x.unsqueeze(0)).tangent)
    print(x[0].expand(2, 3))
    print(torch.cat([x, X]))
    print(torch.stack([x, x * 2], dim=1))
    print(x[1, 1:])
    print(x.cumsum(1))
    print((x * x).sum(), (x ** 2).mean())
