# source: original
# topic: forward-mode tangents through softmax, log_softmax and logsumexp along either dim,
#   and cross_entropy built on them
# compare: exact
# visibility: public
import torch
import torch.nn.functional as F
import torch.autograd.forward_ad as fwAD

X = torch.tensor([[0.3, -1.2, 2.0], [1.5, 0.7, -0.4]])
T = torch.tensor([[1.0, 0.5, -0.25], [0.0, 2.0, 1.0]])
with fwAD.dual_level():
    x = fwAD.make_dual(X, T)
    print(torch.softmax(x, dim=1))
    print(x.softmax(0))
    print(F.softmax(x, dim=-1))
    print(F.log_softmax(x, dim=1))
    print(x.log_softmax(0))
    print(torch.logsumexp(x, dim=1))
    print(x.logsumexp(0, keepdim=True))
    print(F.cross_entropy(x, torch.tensor([2, 0])))
