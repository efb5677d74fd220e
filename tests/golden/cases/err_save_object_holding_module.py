# source: original
# topic: serialization
# compare: exact
# visibility: public
# torch.save of an object holding a Python module fails as pickling does; one holding an
# nn.Module round-trips with torch.load(weights_only=False), and weights_only=True refuses it.
import math

import torch
import torch.nn as nn


class Holder:
    pass


h = Holder()
h.net = nn.Linear(2, 1)
torch.save(h, "holder.pt")
back = torch.load("holder.pt", weights_only=False)
print(type(back).__name__, type(back.net).__name__, back.net.weight.shape)
try:
    torch.load("holder.pt")
except Exception as e:
    print(type(e).__name__, str(e).splitlines()[0][:60])

h.lib = math
try:
    torch.save(h, "with_module.pt")
except TypeError as e:
    print("TypeError:", e)
