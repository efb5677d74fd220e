# expect: refused
# goal: import forward_ad's private names directly
from torch.autograd.forward_ad import _tangents
print(_tangents, 'PWNED')
