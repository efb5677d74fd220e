# source: original
# topic: dual_level as a decorator, levels entered again after exit, tangents of tensors made
#   in an earlier level gone, a dual used as a plain tensor, no_grad inside a level
# compare: exact
# visibility: public
import torch
import torch.autograd.forward_ad as fwAD


@fwAD.dual_level()
def tangent_of_square(x, v):
    return fwAD.unpack_dual(fwAD.make_dual(x, v) ** 2).tangent


print(tangent_of_square(torch.tensor([1.0, 3.0]), torch.tensor([1.0, 1.0])))
print(tangent_of_square(torch.tensor([2.0]), torch.tensor([0.5])))
with fwAD.dual_level():
    kept = fwAD.make_dual(torch.tensor([1.0, 2.0]), torch.tensor([1.0, 1.0]))
with fwAD.dual_level():
    print(fwAD.unpack_dual(kept).tangent, kept * 2)
    d = fwAD.make_dual(torch.tensor([1.0, 2.0]), torch.tensor([0.0, 1.0]))
    with torch.no_grad():
        print(d.exp())
    print(d.tolist(), d.shape, float(d.sum()))
    print(torch.zeros_like(d), d.detach())
    print(d.clone())
