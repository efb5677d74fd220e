# type() of numpy values prints and compares as in Python; computed attribute names work
import numpy as np
import torch
a = np.arange(4.0)
s = a.sum()
print(type(a), type(s), type(a).__name__, a.__class__.__name__)
print(isinstance(a, type(a)), type(a) is type(np.zeros(2)), type(s) == type(a))
t = torch.ones(2, requires_grad=True)
for name in ("shape", "requires_grad", "is_leaf"):
    print(name, getattr(t, name))
print(hasattr(t, "gr" + "ad"), getattr(t, "nothing", "default"))
print(bytes([103, 115]), bytes(2), id(a) == id(a), id(a) != id(s))
