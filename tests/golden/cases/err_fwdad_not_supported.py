# source: original
# topic: ops without a forward derivative refuse a dual input in PyTorch's words
#   (floor_divide, heaviside); rounding and sign give zero tangents; comparisons and argmax
#   drop the tangent; a dtype conversion keeps it
# compare: exact
# visibility: public
import torch
import torch.autograd.forward_ad as fwAD

with fwAD.dual_level():
    d = fwAD.make_dual(torch.tensor([1.5, 2.5]), torch.ones(2))
    print(d.floor(), d.sign(), d > 1, d.argmax())
    print(d.double(), d.to(torch.float64) * 2, d.int())
    try:
        torch.heaviside(d, torch.ones(2))
    except NotImplementedError as e:
        print(e)
    d // 2
