# source: original
# topic: make_dual's checks in PyTorch's words and order: a tangent of another size, integer
#   primal or tangent (ValueError), a dual as primal or tangent, a wrong level, and
#   exit_dual_level misuse
# compare: exact
# visibility: public
import torch
import torch.autograd.forward_ad as fwAD

with fwAD.dual_level():
    for primal, tangent in [(torch.ones(3), torch.ones(2)), (torch.ones(2, 2), torch.ones(4)),
                            (torch.arange(3), torch.ones(3)), (torch.ones(3), torch.arange(3))]:
        try:
            fwAD.make_dual(primal, tangent)
        except (RuntimeError, ValueError) as e:
            print(type(e).__name__, e)
    d = fwAD.make_dual(torch.ones(3), torch.ones(3))
    for primal, tangent, level in [(torch.ones(2), d, None), (d, torch.ones(2), None),
                                   (d, d, None), (torch.ones(2), torch.ones(3), 2),
                                   (torch.arange(2), torch.ones(2), 2)]:
        try:
            fwAD.make_dual(primal, tangent, level=level)
        except (RuntimeError, ValueError) as e:
            print(type(e).__name__, e)
    try:
        fwAD.exit_dual_level(level=3)
    except RuntimeError as e:
        print(e)
try:
    fwAD.exit_dual_level()
except RuntimeError as e:
    print(e)
with fwAD.dual_level():
    fwAD.make_dual(torch.ones(2, 3), torch.ones(3, 2))
