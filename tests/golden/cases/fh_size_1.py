# source: original
# topic: printing
# compare: exact
# visibility: public
# Slicing or extending a torch.Size gives a torch.Size, not a plain tuple.
import torch
s = torch.ones(2, 3, 4).shape
print(s[1:], s[:-1], s[0], type(s[0]).__name__)
print(s + (5,), (1,) + s)
print(torch.Size([2]) * 2)
batch, *rest = s
print(batch, rest)
