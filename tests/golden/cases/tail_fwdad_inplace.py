# source: original
# topic: forward mode through in-place ops and writes: mul_/add_ on a dual, a dual written
#   into a plain tensor by index, relu_ in a module with inplace=True, a write through a view
# compare: exact
# visibility: public
import torch
import torch.nn as nn
import torch.autograd.forward_ad as fwAD

with fwAD.dual_level():
    x = fwAD.make_dual(torch.tensor([1.0, -2.0, 3.0]), torch.tensor([1.0, 1.0, 1.0]))
    y = x * 1
    y.mul_(3)
    print(y)
    y.add_(x)
    print(y)
    y.exp_()
    print(fwAD.unpack_dual(y).tangent)
    z = torch.zeros(2, 3)
    z[0] = x
    print(z)
    z[1, 1:] = x[:2] * 2
    print(fwAD.unpack_dual(z).tangent)
    net = nn.Sequential(nn.Linear(3, 2), nn.ReLU(inplace=True))
    with torch.no_grad():
        net[0].weight.copy_(torch.tensor([[1.0, 0.5, -1.0], [0.0, 2.0, 1.0]]))
        net[0].bias.fill_(2.0)
    out = net(x)
    print(out.tolist(), out.grad_fn.name(), fwAD.unpack_dual(out).tangent.tolist())
    base = x * 2
    base[1:].mul_(10)
    print(base)
