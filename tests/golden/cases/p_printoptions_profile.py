# source: original
# topic: printing
# compare: exact
# visibility: public
# The "short" and "full" profiles, and back to the default.
import torch
torch.set_printoptions(profile="short")
print(torch.tensor([1.12345, 2.0]))
print(torch.arange(1001))
torch.set_printoptions(profile="full")
print(torch.arange(1001.)[995:])
torch.set_printoptions(profile="short", precision=3)
print(torch.tensor([1.12345]))
torch.set_printoptions(profile="default")
print(torch.tensor([1.12345]))
print(torch.arange(1001))
