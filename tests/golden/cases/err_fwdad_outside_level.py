# source: original
# topic: make_dual outside a dual level: PyTorch's RuntimeError (uncaught), after a level
#   has been entered and exited once
# compare: exact
# visibility: public
import torch
import torch.autograd.forward_ad as fwAD

with fwAD.dual_level():
    pass
print(fwAD.unpack_dual(torch.ones(2)))
fwAD.make_dual(torch.ones(2), torch.ones(2))
