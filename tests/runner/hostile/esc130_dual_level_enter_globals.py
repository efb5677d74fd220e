# expect: refused
# goal: dual_level's methods and the decorator's wrapper hand out their globals or closure
import torch.autograd.forward_ad as fwAD
wrapped = fwAD.dual_level()(print)
print(wrapped.__wrapped__, wrapped.__closure__, fwAD.dual_level.__enter__.__globals__,
      'PWNED')
