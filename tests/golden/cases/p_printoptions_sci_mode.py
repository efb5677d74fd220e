# source: original
# topic: printing
# compare: exact
# visibility: public
# sci_mode=True/False forces the notation; each set_printoptions call resets it.
import torch
x = torch.tensor([1.0, 2.0])
y = torch.tensor([1e-6, 1.0])
torch.set_printoptions(sci_mode=True)
print(x, torch.tensor(3.0), torch.tensor([1024., 2.]))
torch.set_printoptions(sci_mode=False)
print(y)
print(torch.tensor([1e10, 1.0]))
torch.set_printoptions(precision=3)
print(y)
torch.set_printoptions(sci_mode=True, precision=2)
print(x)
torch.set_printoptions(profile="default")
print(y)
