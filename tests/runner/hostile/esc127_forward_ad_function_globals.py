# expect: refused
# goal: the globals of forward_ad's functions reach the engine's modules
from torch.autograd import forward_ad
g = forward_ad.make_dual.__globals__
print(g['_events'], 'PWNED')
