# source: original
# topic: forward mode through in-place writes: the tangent is written in place (CopyBackwards,
#   CopySlices), a view's tangent is a view of its base's (AsStridedBackward0 after a write),
#   a view of a base without a tangent reads the base's once a write gave it one
# compare: exact
# visibility: public
import torch
import torch.autograd.forward_ad as fwAD

x = torch.tensor([1.0, 2.0, 3.0], requires_grad=True)
with fwAD.dual_level():
    d = fwAD.make_dual(x, torch.tensor([1.0, 1.0, 1.0]))
    y = d * 2
    v = y[1:]
    y.mul_(3)
    print(fwAD.unpack_dual(v).tangent, fwAD.unpack_dual(y).tangent)
    y.add_(d)
    print(fwAD.unpack_dual(y).tangent)
    y = d * 2
    v = y[1:]
    v.mul_(3)
    print(fwAD.unpack_dual(v).tangent, fwAD.unpack_dual(y).tangent)
    y = x * 2
    v = y[1:]
    v.mul_(d[1:])
    print(fwAD.unpack_dual(v).tangent, fwAD.unpack_dual(y).tangent)
    y = x * 2
    v = y.view(3, 1)
    v.mul_(d.view(3, 1))
    print(fwAD.unpack_dual(v).tangent, fwAD.unpack_dual(y).tangent)
    y = d.clone()
    y.sin_()
    print(fwAD.unpack_dual(y).tangent)
    y = torch.zeros(2, 3)
    y[0].copy_(d)
    print(fwAD.unpack_dual(y).tangent, fwAD.unpack_dual(y[0]).tangent)
    y = torch.zeros(2, 3)
    r = y[0]
    r.add_(d)
    print(fwAD.unpack_dual(y).tangent, fwAD.unpack_dual(r).tangent)
    y = torch.zeros(2, 3)
    r = y[0]
    y[1] = d * 2
    print(fwAD.unpack_dual(r).tangent, fwAD.unpack_dual(y).tangent)
    q = fwAD.make_dual(x * 1, torch.ones(3))
    q[0] = d[1] ** 2
    print(fwAD.unpack_dual(q).tangent)
    u = fwAD.make_dual(x * 1, torch.ones(3, requires_grad=True))
    try:
        u.mul_(2)
    except RuntimeError as err:
        print("RuntimeError", err)
