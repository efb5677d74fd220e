# source: original
# topic: nesting dual levels is refused in PyTorch's words (caught, then uncaught), and
#   enter_dual_level/exit_dual_level by hand
# compare: exact
# visibility: public
import torch
import torch.autograd.forward_ad as fwAD

print(fwAD.enter_dual_level())
try:
    fwAD.enter_dual_level()
except RuntimeError as e:
    print(e)
print(fwAD.exit_dual_level())
with fwAD.dual_level():
    try:
        with fwAD.dual_level():
            print("not reached")
    except RuntimeError as e:
        print("inner:", e)
    print(fwAD.make_dual(torch.ones(1), torch.ones(1)))
with fwAD.dual_level():
    with fwAD.dual_level():
        pass
