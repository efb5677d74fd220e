# source: original
# topic: `with torch.no_grad:` without parentheses, and other classes used as objects
# compare: exact
# visibility: public
import torch
import torch.nn as nn
x = torch.ones(2, requires_grad=True)
for f in (lambda: nn.Linear[0], lambda: len(torch.optim.SGD), lambda: iter(torch.no_grad)):
    try:
        f()
    except TypeError as e:
        print(e)
with torch.no_grad:
    y = x * 2
