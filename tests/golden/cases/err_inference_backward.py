# source: original
# topic: errors
# compare: exact
# visibility: public
# A tensor made under no_grad has no graph to go back through.
import torch
x = torch.tensor([1.0, 2.0], requires_grad=True)
with torch.no_grad():
    y = (x * 2).sum()
print(y)
y.backward()
