# source: original
# topic: torch.autograd.forward_ad: dual_level, make_dual, unpack_dual (UnpackedDualTensor,
#   its fields and unpacking), tangents gone after the level, the level's number
# compare: exact
# visibility: public
import torch
import torch.autograd.forward_ad as fwAD

primal = torch.tensor([0.5, 1.0, 2.0])
tangent = torch.ones(3)
with fwAD.dual_level() as level:
    print(level)
    dual = fwAD.make_dual(primal, tangent)
    out = dual.sin() * 2
    p, t = fwAD.unpack_dual(out)
    print(out)
    print(p, t)
    unpacked = fwAD.unpack_dual(out)
    print(unpacked)
    print(unpacked.primal, unpacked.tangent, unpacked[1])
    print(type(unpacked).__name__, isinstance(unpacked, tuple), len(unpacked))
    print(fwAD.unpack_dual(primal))
    print(fwAD.unpack_dual(dual).tangent is tangent, dual is primal, dual.requires_grad)
print(out)
print(fwAD.unpack_dual(out))
print(fwAD.unpack_dual(out).tangent is None)
