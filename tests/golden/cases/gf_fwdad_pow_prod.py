# source: original
# topic: forward-mode tangents of pow with a tensor exponent (either side dual), pow with a
#   number base, prod and prod(dim): their grad_fn when the primal requires grad
# compare: exact
# visibility: public
import torch
import torch.autograd.forward_ad as fwAD

x = torch.tensor([1.0, 2.0, 3.0], requires_grad=True)
e = torch.tensor([2.0, 0.5, 1.5], requires_grad=True)
with fwAD.dual_level():
    d = fwAD.make_dual(x, torch.tensor([1.0, 1.0, 1.0]))
    primal, tangent = fwAD.unpack_dual(d ** e)
    print(primal, tangent)
    print(fwAD.unpack_dual(torch.pow(d, e)).tangent)
    de = fwAD.make_dual(e, torch.tensor([0.5, 0.5, 0.5]))
    print(fwAD.unpack_dual(x ** de).tangent)
    print(fwAD.unpack_dual(2.0 ** de).tangent)
    print(fwAD.unpack_dual(d ** de).tangent)
    z = torch.tensor([0.0, 2.0, 0.0])
    print(fwAD.unpack_dual(z ** de).tangent)
    p = d.prod()
    print(p, fwAD.unpack_dual(p).tangent)
    print(fwAD.unpack_dual(d.prod(0)).tangent)
    m = fwAD.make_dual(torch.tensor([[1.0, 2.0], [3.0, 4.0]], requires_grad=True),
                       torch.tensor([[1.0, 0.5], [-1.0, 2.0]]))
    print(fwAD.unpack_dual(m.prod(1)).tangent)
    print(fwAD.unpack_dual(torch.prod(m, -1, keepdim=True)).tangent)
    with torch.no_grad():
        print(fwAD.unpack_dual(m.prod()).tangent, fwAD.unpack_dual(d ** e).tangent)
