# expect: exception
# goal: names forward_ad imports but does not export (Tensor, functools, TorchNamed,
#   tangent_of) handed out through the module
import torch.autograd.forward_ad as fwAD
for name in ('functools', 'TorchNamed', 'make_dual_view', 'tangent_of', 'namedtuple'):
    print(getattr(fwAD, name), 'PWNED')
