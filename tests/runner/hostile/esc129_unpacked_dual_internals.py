# expect: refused
# goal: the namedtuple class of unpack_dual's result rebuilds or reaches code (_make,
#   _replace, its metaclass)
import torch
import torch.autograd.forward_ad as fwAD
with fwAD.dual_level():
    u = fwAD.unpack_dual(fwAD.make_dual(torch.ones(1), torch.ones(1)))
    cls = type(u)
    print(getattr(cls, '_ma' + 'ke'), type(cls).__call__, 'PWNED')
