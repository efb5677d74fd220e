# expect: refused
# goal: replace an optimizer method for later runs
import torch.optim as optim
optim.SGD.step = print
print('PWNED')
