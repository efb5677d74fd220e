# source: original
# topic: printing
# compare: exact
# visibility: public
# Long vectors wrap at 80 columns, continuing under the first element.
import torch
print(torch.arange(20.) / 7)
print(torch.arange(40))
print(torch.arange(30.))
print(torch.arange(25.) * 1000.5)
print(torch.linspace(0, 1, 17))
print(torch.arange(60) - 30)
