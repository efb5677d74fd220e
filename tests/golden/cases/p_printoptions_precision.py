# source: original
# topic: printing
# compare: exact
# visibility: public
# set_printoptions(precision=...) changes the number of decimals, and the width with it.
import torch
x = torch.tensor([1.12345, 2.5, -3.0])
torch.set_printoptions(precision=2)
print(x)
print(torch.tensor([0.001, 1.0]))
torch.set_printoptions(precision=6)
print(x)
print(torch.tensor([1e-5, 1.0]))
torch.set_printoptions(precision=0)
print(torch.tensor([1.5, 2.5, 0.4]))
torch.set_printoptions(precision=1)
print(torch.tensor(0.25))
torch.set_printoptions(profile="default")
print(x)
