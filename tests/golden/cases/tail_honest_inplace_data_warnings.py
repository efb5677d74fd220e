# source: original
# topic: python
# compare: exact
# visibility: public
# In-place operators on an attribute (`m.weight.data *= mask`, as d2l prunes weights), and
# warnings recorded with `warnings.catch_warnings(record=True)`.
import warnings

import torch
import torch.nn as nn

m = nn.Linear(3, 2)
with torch.no_grad():
    m.weight.fill_(2.0)
    m.bias.fill_(1.0)
mask = torch.tensor([[1.0, 0.0, 1.0], [0.0, 1.0, 0.0]])
before = m.weight.data
m.weight.data *= mask
print(m.weight, m.weight.data is before)
m.bias.data += 0.5
m.bias.data -= torch.tensor([0.25, 0.0])
m.bias.data /= 2
print(m.bias)


class Counter:
    def __init__(self):
        self.n = 6


c = Counter()
c.n //= 4
c.n **= 3
c.n %= 5
c.n <<= 2
c.n |= 1
c.n ^= 3
c.n &= 6
c.n >>= 1
print(c.n)

with warnings.catch_warnings(record=True) as caught:
    warnings.simplefilter("always")
    warnings.warn("first", UserWarning)
    warnings.warn("second", RuntimeWarning)
print(len(caught), caught[0].category.__name__, str(caught[0].message))
print(caught[1].category.__name__, caught[1].category is RuntimeWarning, caught[1].lineno > 0)
