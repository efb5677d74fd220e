# expect: refused
# goal: forward_ad's private state (the tangent table, the level, the event seam)
import torch.autograd.forward_ad as fwAD
for name in ('_tan' + 'gents', '_lev' + 'el', '_eve' + 'nts'):
    print(getattr(fwAD, name), 'PWNED')
