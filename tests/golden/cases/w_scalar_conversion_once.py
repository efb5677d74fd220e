# source: original
# topic: warnings
# compare: exact
# visibility: public
# A notebook's first cell prints the versions (a CPU build's string); converting a tensor that
# requires grad to a number warns once per process, whichever conversion comes first.
import math

import numpy as np
import torch

print(torch.__version__, torch.__version__.split("+")[0], torch.__version__ >= "2.0")
print("numpy is there:", isinstance(np.__version__, str))
try:
    print(math.__version__)
except AttributeError as e:
    print(e)
x = torch.tensor(3.0, requires_grad=True)
y = x * 2
print(math.sqrt(x))
print(float(y), int(y), y.item())
print(f"{y:.2f}", round(float(x), 1))
